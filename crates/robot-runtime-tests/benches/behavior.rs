//! Tick cost of the behavior runner against bonsai-bt on the same reactive tree.
//!
//! Tree (size n): a strict-priority dispatcher that re-evaluates its children every tick
//! (`interruptActiveBehavior: true`) over n children: n−1 that do not want to run and a
//! last one (`Wait`) that runs forever. Every child is in activatable scope, so each tick
//! asks n−1 `wants_to_be_activated`, updates n+1 behaviors and updates the intent
//! component. `robot_runtime`: the children opt out of updates while inactive (as every
//! built-in class does); `robot_runtime_update_in_scope`: they ask for them (the original's
//! contract), one more virtual call per child; `robot_runtime_declared`: the children
//! declare what their answer reads (`Behavior::activation_watch`: nothing, it is a
//! constant), so the runner reuses it and the dispatcher's choice (the cached tick).
//! bonsai-bt: the equivalent reactive selector, `Select(..).memory(false)` over
//! n−1 actions that fail and a last one that stays `Running`, ticked with a dt event.
//!
//! On a tree shaped like the original robot's (`shaped_tree::tree`, 350 files holding 444
//! behaviors, 96 of them anonymous; idle in its
//! HighLevelAI, every reaction's condition false): `load_tree/original_shaped_350` loads,
//! validates and resolves it from its JSON texts; `original_shaped_tick` ticks it (throughput:
//! the behaviors in activatable scope, so the report is the cost per in-scope behavior),
//! beside bonsai-bt on a tree of as many nodes (a reactive selector over selectors of failing
//! actions, one per group, and a last running action). `deep_chain/N` ticks a chain of N
//! strict-priority dispatchers (throughput: N, the depth of the stack).
//!
//! The union is the generated test union of this crate (`schemas/test_user_intent.clad`).
//!
//! `cargo bench -p robot-runtime-tests --bench behavior`

use std::hint::black_box;
use std::time::Duration;

use bonsai_bt::{Action, Event, Select, Status, UpdateArgs, BT, RUNNING};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use original_behaviors::{RobotAccessMut, StrictPriorityDispatcher, Wait};
use robot_runtime::behavior::{
    load_tree, Behavior, LoadOptions, Runner, Source, Spec, TreeBuilder, View, Watch,
};
use robot_runtime::intent::IntentComponent;
use robot_runtime_tests::{shaped_tree, UserIntent as Intent, MAP};

/// A behavior that does not want to run (its condition is a field, not a constant).
/// `in_scope_update`: whether it asks for `update` while in scope and inactive (the
/// original's contract; every built-in class opts out). `declared`: whether it declares
/// that its answer reads nothing of the runner (so the runner may reuse it).
struct Never {
    wants: bool,
    in_scope_update: bool,
    declared: bool,
}

impl Behavior<Intent> for Never {
    fn updates_while_inactive(&self) -> bool {
        self.in_scope_update
    }
    fn update(&mut self, _ctx: &mut robot_runtime::behavior::Ctx<'_, Intent>) {
        black_box(self.wants);
    }
    fn wants_to_be_activated(&self, _view: &View<'_, Intent>) -> bool {
        self.wants
    }
    fn activation_watch(&self, _view: &View<'_, Intent>) -> Option<Watch> {
        self.declared.then_some(Watch::CONSTANT)
    }
}

fn runner(n: usize, in_scope_update: bool, declared: bool) -> Runner<Intent> {
    let mut b = TreeBuilder::<Intent>::new();
    let mut kids = Vec::with_capacity(n);
    for i in 0..n - 1 {
        kids.push(
            b.add(
                &format!("Never{i}"),
                Spec::new("Never"),
                Never {
                    wants: false,
                    in_scope_update,
                    declared,
                },
            )
            .unwrap(),
        );
    }
    kids.push(b.add("Idle", Spec::new("Wait"), Wait::new()).unwrap());
    b.add(
        "Root",
        Spec::new("DispatcherStrictPriority"),
        StrictPriorityDispatcher::new(kids, true),
    )
    .unwrap();
    let mut r = Runner::new(b.build("Root").unwrap(), IntentComponent::new(&MAP));
    r.tick(Duration::from_millis(10), &[]);
    r.tick(Duration::from_millis(10), &[]);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
    assert_eq!(r.in_scope().len(), n + 1);
    r
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum BonsaiAction {
    Never,
    Idle,
}

fn bonsai(n: usize) -> BT<BonsaiAction, ()> {
    let mut kids = Vec::with_capacity(n);
    for _ in 0..n - 1 {
        kids.push(Action(BonsaiAction::Never));
    }
    kids.push(Action(BonsaiAction::Idle));
    BT::new(Select(kids).memory(false), ())
}

fn ticks(c: &mut Criterion) {
    let mut g = c.benchmark_group("behavior_tick");
    for n in [10usize, 100, 1000] {
        g.throughput(Throughput::Elements(n as u64));
        let mut r = runner(n, false, false);
        g.bench_function(BenchmarkId::new("robot_runtime", n), |b| {
            b.iter(|| r.tick(black_box(Duration::from_millis(10)), black_box(&[])))
        });
        assert_eq!(r.stack_names(), ["Root", "Idle"]);
        let mut r = runner(n, false, true);
        g.bench_function(BenchmarkId::new("robot_runtime_declared", n), |b| {
            b.iter(|| r.tick(black_box(Duration::from_millis(10)), black_box(&[])))
        });
        assert_eq!(r.stack_names(), ["Root", "Idle"]);
        let mut r = runner(n, true, false);
        g.bench_function(BenchmarkId::new("robot_runtime_update_in_scope", n), |b| {
            b.iter(|| r.tick(black_box(Duration::from_millis(10)), black_box(&[])))
        });
        assert_eq!(r.stack_names(), ["Root", "Idle"]);
        let mut bt = bonsai(n);
        let e: Event = UpdateArgs { dt: 0.01 }.into();
        g.bench_function(BenchmarkId::new("bonsai_bt", n), |b| {
            b.iter(|| {
                bt.tick(black_box(&e), &mut |args, _| match args.action {
                    BonsaiAction::Never => (Status::Failure, args.dt),
                    BonsaiAction::Idle => RUNNING,
                })
            })
        });
    }
    g.finish();
}

fn shaped_runner(files: &[(String, String)]) -> Runner<Intent> {
    let mut r = shaped_tree::runner(files);
    for _ in 0..40 {
        r.tick(Duration::from_millis(60), &[]);
    }
    assert!(r.is_on_stack(r.id("HighLevelAI").unwrap()));
    r
}

fn original_shaped(c: &mut Criterion) {
    let files = shaped_tree::tree(350, 2);
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let reg = original_behaviors::registry::<Intent, ()>();
    let mut g = c.benchmark_group("load_tree");
    g.throughput(Throughput::Elements(files.len() as u64));
    g.bench_function("original_shaped_350", |b| {
        b.iter(|| {
            load_tree(
                &reg,
                black_box(&sources),
                "InitNormalOperation",
                &LoadOptions::with_stand_ins(),
            )
            .unwrap()
        })
    });
    g.finish();

    let mut r = shaped_runner(&files);
    let in_scope = r.in_scope().len();
    let groups = r.delegates(r.id("GlobalInterruptions").unwrap()).len();
    let mut g = c.benchmark_group("original_shaped_tick");
    g.throughput(Throughput::Elements(in_scope as u64));
    g.bench_function(BenchmarkId::new("robot_runtime", in_scope), |b| {
        b.iter(|| r.tick(black_box(Duration::from_millis(60)), black_box(&[])))
    });
    assert!(r.is_on_stack(r.id("HighLevelAI").unwrap()));
    // One input changes every tick: the proximity sensor (as on a robot moving past a
    // wall; nothing in this tree reads it), or the emotions (several reactions' conditions
    // read them, and are asked again; the rest is kept).
    g.bench_function(
        BenchmarkId::new("robot_runtime_one_input_changes", in_scope),
        |b| {
            let mut near = false;
            b.iter(|| {
                near = !near;
                r.robot_mut().prox_mm = Some(if near { 300.0 } else { 301.0 });
                r.tick(black_box(Duration::from_millis(60)), black_box(&[]))
            })
        },
    );
    g.bench_function(
        BenchmarkId::new("robot_runtime_one_read_input_changes", in_scope),
        |b| {
            let mut up = false;
            b.iter(|| {
                up = !up;
                r.robot_mut().emotions = [if up { 0.31 } else { 0.3 }; 5];
                r.tick(black_box(Duration::from_millis(60)), black_box(&[]))
            })
        },
    );
    assert!(r.is_on_stack(r.id("HighLevelAI").unwrap()));
    // bonsai-bt: as many nodes, shaped alike.
    let per_group = in_scope / groups.max(1);
    let mut kids = Vec::with_capacity(groups);
    for _ in 0..groups.saturating_sub(1) {
        kids.push(
            Select(
                (0..per_group.max(1))
                    .map(|_| Action(BonsaiAction::Never))
                    .collect(),
            )
            .memory(false),
        );
    }
    kids.push(Action(BonsaiAction::Idle));
    let mut bt = BT::new(Select(kids).memory(false), ());
    let e: Event = UpdateArgs { dt: 0.06 }.into();
    g.bench_function(BenchmarkId::new("bonsai_bt", in_scope), |b| {
        b.iter(|| {
            bt.tick(black_box(&e), &mut |args, _| match args.action {
                BonsaiAction::Never => (Status::Failure, args.dt),
                BonsaiAction::Idle => RUNNING,
            })
        })
    });
    g.finish();

    let mut g = c.benchmark_group("deep_chain");
    for depth in [1_000usize, 10_000] {
        let text = shaped_tree::chain(depth);
        let tree = load_tree(
            &original_behaviors::registry::<Intent, ()>(),
            &[Source::new("chain.json", &text)],
            "Link0",
            &LoadOptions::default(),
        )
        .unwrap();
        let mut r = Runner::new(tree, IntentComponent::new(&MAP));
        r.tick(Duration::from_millis(60), &[]);
        assert_eq!(r.stack().len(), depth + 1);
        g.throughput(Throughput::Elements(depth as u64));
        g.bench_function(BenchmarkId::from_parameter(depth), |b| {
            b.iter(|| r.tick(black_box(Duration::from_millis(60)), black_box(&[])))
        });
    }
    g.finish();
}

criterion_group!(benches, ticks, original_shaped);
criterion_main!(benches);
