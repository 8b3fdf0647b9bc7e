//! Every condition kind of `original-behaviors` describes itself consistently (the caching
//! contract of `ConditionType::next_change`): after an evaluation, while none of the inputs
//! it declares changes and the time is before the next change it declares, evaluating it
//! again gives the same answer. Checked on every kind at once with random parameters (every
//! leaf, and the two wrappers over a random leaf), inside a state machine or not, under
//! random changes of every robot-state field a condition reads, at random times and right
//! before and at a kind's declared change. And every native condition type is among the
//! kinds tried.

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::time::Duration;

use original_behaviors::conditions::{
    AngleInRange, BeatDetected, BecameTrueThisTick, BehaviorSuggested, BehaviorTimer, BeingHeld,
    CliffDetected, EmotionInRange, FaceKnown, FeatureGate, ObjectKnown, OffTreadsState,
    ProxInRange, RobotHeldInPalm, RobotPoked, RobotShaken, RobotTouched, StuckOnEdge, TimedDedup,
    TimerInRange,
};
use original_behaviors::robot_state::{
    BatteryLevel, Emotion, Face, Habitat, OffTreads, RobotState, SimpleMood,
};
use original_behaviors::{
    catalog, Flag, HighLevelAiCondition, MoodTest, OriginalCondition, RobotAccess, RobotAccessMut,
    NATIVE_TYPES,
};
use proptest::prelude::*;
use robot_runtime::behavior::{
    load_tree, Condition, EvalCx, LoadOptions, MachineTimes, Runner, Source, Wakeup,
    FRAMEWORK_TYPES,
};
use robot_runtime::intent::IntentComponent;
use robot_runtime_tests::{UserIntent, MAP};

type Kind = OriginalCondition<UserIntent, ()>;

/// The parameters of the conditions of one case, one of each kind ([`condition`]): `sub`
/// picks the leaf the wrappers wrap, the others the keys.
#[derive(Clone, Debug)]
struct Spec {
    sub: u8,
    a: u8,
    b: u8,
    flag: bool,
    t1: u16,
    t2: u16,
}

/// How many leaf kinds [`leaf`] knows; kinds `LEAVES` and `LEAVES + 1` are the wrappers.
const LEAVES: u8 = 30;
const KINDS: u8 = LEAVES + 2;
const FEATURES: [&str; 2] = ["Exploring", "Dancing"];
const NS: Duration = Duration::from_nanos(1);
const HOUR: Duration = Duration::from_secs(3600);

fn ms(x: u16) -> Duration {
    Duration::from_millis(u64::from(x))
}

/// A value on a grid of `n` steps of `step` from `from`.
fn grid(x: u8, n: u8, from: f32, step: f32) -> f32 {
    from + f32::from(x % n) * step
}

fn leaf(s: &Spec, kind: u8) -> Kind {
    let (a, b) = (usize::from(s.a), usize::from(s.b));
    let (lo, hi) = (ms(s.t1.min(s.t2)), ms(s.t1.max(s.t2)));
    let mood = |x: usize| (x % 6 < 5).then(|| SimpleMood::ALL[x % 6]);
    match kind % LEAVES {
        0 => Kind::Flag(Flag::ALL[a % Flag::ALL.len()]),
        1 => Kind::OffTreadsState(OffTreadsState {
            target: OffTreads::ALL[a % 7],
            min: lo,
            max: s.flag.then_some(hi),
        }),
        2 => Kind::FeatureGate(FeatureGate {
            feature: FEATURES[a % 2].into(),
            expected: s.flag,
        }),
        3 | 4 => Kind::ObjectKnown(ObjectKnown {
            types: (1 << (a % 8)) | (1 << (b % 8)),
            max_age_ms: [None, Some(0), Some(u64::from(s.t1))][b % 3],
            memory: RefCell::new(Vec::new()),
            first_time_only: (kind % LEAVES == 4).then(|| Cell::new(false)),
        }),
        5 => Kind::Emotion(EmotionInRange {
            emotion: Emotion::ALL[a % 5],
            min: grid(s.a, 9, -1.0, 0.25),
            max: grid(s.b, 9, -1.0, 0.25),
        }),
        6 => Kind::RobotHeldInPalm(RobotHeldInPalm {
            should: s.flag,
            min: lo,
            max: hi,
        }),
        7 => Kind::BatteryLevel(BatteryLevel::ALL[a % 4]),
        8 => Kind::BeingHeld(BeingHeld {
            should: s.flag,
            min: lo,
            max: hi,
        }),
        9 => Kind::CliffDetected(CliffDetected {
            count: if s.flag { 0 } else { 1 + s.a % 4 },
            no_cliffs: s.flag,
            min: lo,
            max: hi,
        }),
        10 => Kind::TimerInRange(TimerInRange {
            begin: lo,
            end: s.flag.then_some(hi),
            manual_reset_only: b % 2 == 0,
            reset_at: Cell::new(Duration::ZERO),
        }),
        11 => Kind::SimpleMood(MoodTest::Is(SimpleMood::ALL[a % 5])),
        12 => Kind::SimpleMood(MoodTest::Transition(mood(a), mood(b))),
        13 => Kind::BehaviorTimer(BehaviorTimer {
            timer: a % catalog::BEHAVIOR_TIMERS.len(),
            cooldown: lo,
        }),
        14 => Kind::BehaviorSuggested(BehaviorSuggested {
            suggestion: a % 3,
            max_ticks: u64::from(s.b % 4),
        }),
        15 => Kind::StuckOnEdge(StuckOnEdge {
            enable_in_palm: s.flag,
            start: Cell::new(None),
        }),
        16 => Kind::RobotShaken(RobotShaken {
            threshold: grid(s.a, 4, 0.0, 8000.0),
        }),
        17 => Kind::AngleInRange(AngleInRange {
            pitch: s.flag,
            min: grid(s.a, 5, -40.0, 10.0),
            max: grid(s.b, 5, 0.0, 10.0),
        }),
        18 => Kind::ProxInRange(ProxInRange {
            min: grid(s.a, 4, 0.0, 100.0),
            max: grid(s.b, 4, 100.0, 100.0),
            invalid: s.flag,
        }),
        19 => Kind::RobotPoked(RobotPoked { threshold: hi }),
        20 => Kind::RobotTouched(RobotTouched { min: lo }),
        21 => Kind::BeatDetected(BeatDetected {
            allow_potential: s.flag,
        }),
        22 => Kind::EngineErrorCodeReceived(s.a % 4),
        23 => Kind::FaceKnown(FaceKnown {
            max_distance_mm: (a % 3 > 0).then(|| grid(s.a, 3, 0.0, 300.0)),
            max_age: (b % 3 > 0).then_some(hi),
            must_be_named: s.flag,
        }),
        24 => Kind::StateTime(lo),
        25 => Kind::HighLevelAi(HighLevelAiCondition::CloseFaceForSocializing {
            cooldown: lo,
            max_distance_mm: grid(s.a, 4, 100.0, 200.0),
        }),
        26 => Kind::HighLevelAi(HighLevelAiCondition::ChargerLocated),
        27 => Kind::HighLevelAi(HighLevelAiCondition::WantsToLeaveChargerForPlay {
            charger_cooldown: lo,
            cube_cooldown: hi,
            drive_off_state: (a % 3 > 0).then(|| a % 3 - 1),
        }),
        28 => Kind::HighLevelAi(HighLevelAiCondition::CloseCubeForPlaying { cube_cooldown: lo }),
        _ => Kind::HighLevelAi(HighLevelAiCondition::ExploringCooldownMet {
            exploring_state: (b % 3 > 0).then(|| b % 3 - 1),
        }),
    }
}

/// The condition of kind `kind` (below [`KINDS`]) with the keys of `s`.
fn condition(s: &Spec, kind: u8) -> Condition<UserIntent> {
    let sub = || Box::new(leaf(s, s.sub).condition());
    match kind % KINDS {
        k if k < LEAVES => leaf(s, k).condition(),
        k if k == LEAVES => Kind::BecameTrueThisTick(BecameTrueThisTick {
            sub: sub(),
            last: Cell::new(-1),
        })
        .condition(),
        _ => Kind::TimedDedup(TimedDedup {
            sub: sub(),
            interval: ms(s.t2),
            next_valid: Cell::new(Duration::ZERO),
        })
        .condition(),
    }
}

/// One change of what a condition may read, made between two ticks.
#[derive(Clone, Debug)]
enum Change {
    OffTreads(u8),
    BeingHeld(bool),
    Palm(bool),
    Cliffs(u8),
    Mood(u8),
    Poke,
    Touched(bool),
    EngineError(u8),
    Feature(u8, bool),
    PickedUp(bool),
    OnCharger(bool),
    OnPlatform(bool),
    Carrying(bool),
    Battery(u8),
    Temperatures(u8, u8),
    TooHot(bool),
    Habitat(u8),
    UserHoldingCube(bool),
    Prox(u8),
    Pose(u8, u8),
    Accel(u8),
    Observe(u8),
    ForgetObjects,
    Face(u8, bool),
    ForgetFaces,
    EyeContact(bool),
    Emotion(u8, u8),
    CubeConnected(bool),
    UnexpectedMovement(bool),
    HoursAlive(u8),
    Notifications(u8, bool),
    Beat(bool, bool),
    ResetTimer(u8),
    Suggest(u8),
    PendingIntent(u8),
}

fn apply(r: &mut Runner<UserIntent>, c: &Change) {
    let tick = r.clock().tick();
    let s: &mut RobotState = r.robot_mut();
    let now = s.now();
    match *c {
        Change::OffTreads(k) => s.set_off_treads(OffTreads::ALL[usize::from(k) % 7]),
        Change::BeingHeld(b) => s.set_being_held(b),
        Change::Palm(b) => s.set_held_in_palm(b),
        Change::Cliffs(bits) => s.set_cliffs(bits),
        Change::Mood(k) => s.set_simple_mood(SimpleMood::ALL[usize::from(k) % 5]),
        Change::Poke => s.poke(),
        Change::Touched(b) => s.set_touched(b),
        Change::EngineError(k) => s.receive_engine_error(k % 4),
        Change::Feature(k, b) => s.set_feature(FEATURES[usize::from(k) % 2], b),
        Change::PickedUp(b) => s.picked_up = b,
        Change::OnCharger(b) => s.on_charger = b,
        Change::OnPlatform(b) => s.on_charger_platform = b,
        Change::Carrying(b) => s.carrying_object = b,
        Change::Battery(k) => s.battery_level = BatteryLevel::ALL[usize::from(k) % 4],
        Change::Temperatures(cpu, bat) => {
            s.cpu_temp_c = grid(cpu, 3, 80.0, 10.0);
            s.battery_temp_c = grid(bat, 3, 45.0, 10.0);
        }
        Change::TooHot(b) => s.too_hot_to_charge = b,
        Change::Habitat(k) => {
            s.habitat =
                [Habitat::Unknown, Habitat::InHabitat, Habitat::NotInHabitat][usize::from(k) % 3]
        }
        Change::UserHoldingCube(b) => s.user_holding_cube = b,
        Change::Prox(k) => s.prox_mm = (k % 6 > 0).then(|| grid(k, 6, -50.0, 80.0)),
        Change::Pose(p, q) => {
            s.pitch_deg = grid(p, 9, -40.0, 10.0);
            s.roll_deg = grid(q, 9, -40.0, 10.0);
        }
        Change::Accel(k) => s.accel_magnitude = grid(k, 5, 0.0, 6000.0),
        // Cubes 1–3 and, last of the first eight types, the charger.
        Change::Observe(k) => s.observe_object(k % 8, 150.0),
        Change::ForgetObjects => s.objects.clear(),
        Change::Face(k, named) => s.faces.push(Face {
            distance_mm: (k % 4 > 0).then(|| grid(k, 4, 0.0, 250.0)),
            named,
            name: None,
            last_seen: now,
        }),
        Change::ForgetFaces => s.faces.clear(),
        Change::EyeContact(b) => s.eye_contact = b,
        Change::Emotion(e, v) => s.emotions[usize::from(e) % 5] = grid(v, 9, -1.0, 0.25),
        Change::CubeConnected(b) => s.cube_connected = b,
        Change::UnexpectedMovement(b) => s.unexpected_movement = b,
        Change::HoursAlive(h) => s.hours_alive = f32::from(h),
        Change::Notifications(k, b) => match k % 7 {
            0 => s.night_time = b,
            1 => s.maintenance_reboot = b,
            2 => s.alexa_active = b,
            3 => s.placed_on_slope = b,
            4 => s.obstacle_detected = b,
            5 => s.salient_point_detected = b,
            _ => s.motion_detected = b,
        },
        Change::Beat(b, p) => {
            s.beat_detected = b;
            s.potential_beat_detected = p;
        }
        Change::ResetTimer(k) => s
            .behavior_timers
            .reset(usize::from(k) % catalog::BEHAVIOR_TIMERS.len(), now),
        Change::Suggest(k) => s.whiteboard.offer(usize::from(k) % 3, tick),
        Change::PendingIntent(k) => s.note_pending_intent(
            ["imperative_quiet", "play_anything", "explore_start"][usize::from(k) % 3],
        ),
    }
}

fn change() -> impl Strategy<Value = Change> {
    let b = any::<bool>;
    let n = any::<u8>;
    prop_oneof![
        n().prop_map(Change::OffTreads),
        b().prop_map(Change::BeingHeld),
        b().prop_map(Change::Palm),
        n().prop_map(Change::Cliffs),
        n().prop_map(Change::Mood),
        Just(Change::Poke),
        b().prop_map(Change::Touched),
        n().prop_map(Change::EngineError),
        (n(), b()).prop_map(|(k, v)| Change::Feature(k, v)),
        b().prop_map(Change::PickedUp),
        b().prop_map(Change::OnCharger),
        b().prop_map(Change::OnPlatform),
        b().prop_map(Change::Carrying),
        n().prop_map(Change::Battery),
        (n(), n()).prop_map(|(c, t)| Change::Temperatures(c, t)),
        b().prop_map(Change::TooHot),
        n().prop_map(Change::Habitat),
        b().prop_map(Change::UserHoldingCube),
        n().prop_map(Change::Prox),
        (n(), n()).prop_map(|(p, q)| Change::Pose(p, q)),
        n().prop_map(Change::Accel),
        n().prop_map(Change::Observe),
        Just(Change::ForgetObjects),
        (n(), b()).prop_map(|(k, v)| Change::Face(k, v)),
        Just(Change::ForgetFaces),
        b().prop_map(Change::EyeContact),
        (n(), n()).prop_map(|(e, v)| Change::Emotion(e, v)),
        b().prop_map(Change::CubeConnected),
        b().prop_map(Change::UnexpectedMovement),
        n().prop_map(Change::HoursAlive),
        (n(), b()).prop_map(|(k, v)| Change::Notifications(k, v)),
        (b(), b()).prop_map(|(x, p)| Change::Beat(x, p)),
        n().prop_map(Change::ResetTimer),
        n().prop_map(Change::Suggest),
        n().prop_map(Change::PendingIntent),
    ]
}

/// How far the clock moves after a step's changes.
#[derive(Clone, Debug)]
enum Jump {
    /// By this many milliseconds.
    By(u16),
    /// To 1 ns before the declared next change of the condition of this kind (or by 1 ms
    /// when it declares none within an hour).
    JustBefore(u8),
    /// To the declared next change of the condition of this kind.
    To(u8),
}

#[derive(Clone, Debug)]
struct Step {
    changes: Vec<Change>,
    /// The behavior holding the condition is activated (or deactivated): its state may
    /// change, so the answer is not checked at this step.
    activate: Option<bool>,
    jump: Jump,
}

fn step() -> impl Strategy<Value = Step> {
    (
        prop::collection::vec(change(), 0..3),
        prop_oneof![8 => Just(None), 1 => any::<bool>().prop_map(Some)],
        prop_oneof![
            3 => (0u16..3000).prop_map(Jump::By),
            1 => any::<u8>().prop_map(Jump::JustBefore),
            1 => any::<u8>().prop_map(Jump::To),
        ],
    )
        .prop_map(|(changes, activate, jump)| Step {
            changes,
            activate,
            jump,
        })
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        any::<u8>(),
        any::<u8>(),
        any::<u8>(),
        any::<bool>(),
        0u16..4000,
        0u16..4000,
    )
        .prop_map(|(sub, a, b, flag, t1, t2)| Spec {
            sub,
            a,
            b,
            flag,
            t1,
            t2,
        })
}

/// A runner over a tree that does nothing (an idle `Wait`): its robot state and clock are
/// what the condition reads.
fn runner() -> Runner<UserIntent> {
    let tree = load_tree(
        &original_behaviors::registry(),
        &[Source::new(
            "idle.json",
            r#"{"behaviorID": "Idle", "behaviorClass": "Wait"}"#,
        )],
        "Idle",
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut r = Runner::new(tree, IntentComponent::new(&MAP));
    r.tick(Duration::from_millis(60), &[]);
    r
}

/// A state machine's times for the evaluation (None: outside a state machine).
#[derive(Clone, Debug)]
struct Machine {
    adjusted_start: u16,
    last_started: u16,
    last_ended: [Option<u16>; 2],
    first_activation: u16,
}

fn machine() -> impl Strategy<Value = Option<Machine>> {
    prop::option::of(
        (
            0u16..8000,
            0u16..8000,
            [prop::option::of(0u16..8000), prop::option::of(0u16..8000)],
            0u16..8000,
        )
            .prop_map(
                |(adjusted_start, last_started, last_ended, first)| Machine {
                    adjusted_start,
                    last_started,
                    last_ended,
                    first_activation: first,
                },
            ),
    )
}

/// Evaluates `c` on `r` (in `machine`, if any): its answer and its declared next change.
fn evaluate(
    r: &Runner<UserIntent>,
    c: &Condition<UserIntent>,
    machine: &Option<Machine>,
) -> (bool, Wakeup) {
    let ended: Vec<Option<Duration>> = machine
        .iter()
        .flat_map(|m| m.last_ended.iter().map(|e| e.map(ms)))
        .collect();
    let mut cx = EvalCx::new(r.intents(), r.dyn_world(), r.clock(), &[]);
    if let Some(m) = machine {
        cx = cx.in_machine(MachineTimes {
            adjusted_start: ms(m.adjusted_start),
            last_started: ms(m.last_started),
            last_ended: &ended,
            first_activation: ms(m.first_activation),
            this_activation: ms(m.last_started),
        });
    }
    let v = c.eval(&cx);
    (v, c.next_change(&cx))
}

/// One condition of the case and what its last evaluation said.
struct Tracked {
    c: Condition<UserIntent>,
    was: bool,
    until: Wakeup,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn no_kind_changes_its_answer_before_its_declared_change_unless_its_inputs_do(
        spec in spec(),
        machine in machine(),
        steps in prop::collection::vec(step(), 1..40),
    ) {
        let mut r = runner();
        let mut all: Vec<Tracked> = (0..KINDS)
            .map(|kind| {
                let c = condition(&spec, kind);
                let (was, until) = evaluate(&r, &c, &machine);
                Tracked { c, was, until }
            })
            .collect();
        for (i, s) in steps.iter().enumerate() {
            let before = r.robot().clone();
            for ch in &s.changes {
                apply(&mut r, ch);
            }
            let now = r.clock().now();
            for t in &all {
                if let Some(on) = s.activate {
                    t.c.set_active(on, now);
                }
            }
            // A declared change within an hour (a window open forever declares its end at
            // the end of time).
            let left = |kind: &u8| match all[usize::from(*kind % KINDS)].until {
                Wakeup::At(t) if t > now && t - now < HOUR => Some(t - now),
                _ => None,
            };
            let dt = match &s.jump {
                Jump::By(d) => ms(*d),
                Jump::JustBefore(k) => left(k).filter(|d| *d > NS).map_or(NS, |d| d - NS),
                Jump::To(k) => left(k).unwrap_or(NS),
            };
            r.tick(dt, &[]);
            let changed = r.robot().changed_from(&before);
            let now = r.clock().now();
            for t in &mut all {
                let (v, next) = evaluate(&r, &t.c, &machine);
                let quiet = match t.until {
                    Wakeup::Never => true,
                    Wakeup::At(at) => now < at,
                    Wakeup::EveryTick => false,
                };
                let inputs = t.c.inputs();
                if quiet && s.activate.is_none() && !changed.intersects(inputs) {
                    prop_assert_eq!(
                        v,
                        t.was,
                        "{:?} changed its answer at step {} ({:?} then {:?}), at {:?}, before \
                         its declared change {:?}, though none of its inputs {:?} changed ({:?})",
                        t.c,
                        i,
                        s.changes,
                        s.jump,
                        now,
                        t.until,
                        inputs,
                        changed
                    );
                }
                t.was = v;
                t.until = next;
            }
        }
    }
}

/// Every native condition type that the runtime does not run itself is one of the kinds
/// the property tries, and so are the state timers and HighLevelAI's custom conditions.
#[test]
fn the_property_tries_every_kind() {
    let mut tried = BTreeSet::new();
    for kind in 0..KINDS {
        for a in 0..=u8::MAX {
            let s = Spec {
                sub: 0,
                a,
                b: 0,
                flag: a % 2 == 0,
                t1: 0,
                t2: 0,
            };
            tried.insert(condition(&s, kind).type_name().to_owned());
        }
    }
    let mut expected: BTreeSet<String> = NATIVE_TYPES
        .iter()
        .filter(|t| !FRAMEWORK_TYPES.contains(t))
        .map(|t| t.to_string())
        .collect();
    expected.insert("StateTimer".into());
    for name in [
        "CloseFaceForSocializing",
        "ChargerLocated",
        "WantsToLeaveChargerForPlay",
        "CloseCubeForPlaying",
        "ExploringCooldownMet",
    ] {
        expected.insert(name.into());
    }
    assert_eq!(tried, expected);
}
