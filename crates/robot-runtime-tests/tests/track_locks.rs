//! `tracksToLockWhileActivated` claimed through the robot's one arbiter at runtime (spec §0:
//! activation step 3, deactivation step 5): a behavior holds its tracks' parts while it is
//! active, its own delegates' animations play without them instead of being blocked, and a
//! mission capability meets the lock under the one policy (a lower priority waits for it, a
//! higher one takes the part after the behavior's work on it stopped, and the lock takes it
//! back afterwards). Trees in the original's JSON format, run by the original's classes.

use std::time::Duration;

use original_behaviors::RobotAccessMut;
use robot_runtime::arbiter::{Body, ResourceSet, WhenBlocked};
use robot_runtime::behavior::{load_tree, LoadOptions, LockedParts, Runner, Source, Wakeup};
use robot_runtime::hri::Priority;
use robot_runtime::intent::IntentComponent;
use robot_runtime::mission::{Phase, RequestId};
use robot_runtime_tests::{UserIntent, MAP};

mod support;
use support::{Robot, DT};

/// While the robot is on its charger, `StayDocked` keeps the treads to itself and looks
/// around (an endless animation loop of its delegate); otherwise it idles.
const TREE: &str = r#"[
  {"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
   "behaviors": ["StayDocked", "Idle"]},
  {"behaviorID": "StayDocked", "behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": false,
   "tracksToLockWhileActivated": ["BODY_TRACK", "EVENT_TRACK"],
   "wantsToBeActivatedCondition": {"conditionType": "OnCharger"},
   "wantsToCancelSelfCondition": {"conditionType": "Compound", "not": {"conditionType": "OnCharger"}},
   "behaviors": ["LookAroundOnCharger"]},
  {"behaviorID": "LookAroundOnCharger", "behaviorClass": "AnimSequence",
   "animTriggers": ["LookAround"], "num_loops": 0},
  {"behaviorID": "Idle", "behaviorClass": "Wait"}
]"#;

/// The robot running `tree`, its actions waiting at most 1 s for what they need, its
/// arbiter's events shown with the parts each claim names.
fn robot(tree: &str) -> Robot {
    support::robot(
        tree,
        WhenBlocked::Wait {
            up_to: Some(Duration::from_secs(1)),
        },
        support::with_parts,
    )
}

impl Robot {
    fn docked(&mut self, on: bool) {
        self.runner.robot_mut().on_charger = on;
    }

    fn drive(&mut self, priority: u8) -> RequestId {
        self.mc.submit(self.drive, Priority(priority), None)
    }
}

const LOOK: &str = "LookAroundOnCharger/LookAround";

#[test]
fn a_behavior_locking_body_track_holds_the_base_while_active_and_its_delegates_animation_plays_without_it(
) {
    let mut r = robot(TREE);
    r.ticks(2);
    assert_eq!(r.runner.stack_names(), ["Root", "Idle"]);
    assert_eq!(r.holder_of(Body::Base), None);

    r.docked(true);
    r.ticks(2);
    assert_eq!(
        r.runner.stack_names(),
        ["Root", "StayDocked", "LookAroundOnCharger"]
    );
    let stay = r.runner.id("StayDocked").unwrap();
    assert!(r.runner.track_lock(stay).is_some());
    // The lock holds the base (EVENT_TRACK adds nothing); the animation of its delegate
    // runs at once, without the base: not blocked by its own stack's lock.
    assert_eq!(
        r.holder_of(Body::Base).as_deref(),
        Some("StayDocked/tracks")
    );
    let look = r.runner.id("LookAroundOnCharger").unwrap();
    assert_eq!(r.runner.action_of(look), Some("LookAround"));
    assert_eq!(r.holder_of(Body::Head).as_deref(), Some(LOOK));
    assert_eq!(
        r.holders(),
        [
            "StayDocked/tracks base".to_owned(),
            format!("{LOOK} head+lift+screen+backpack_lights+audio"),
        ]
    );
    let (held, locked) = r.runner.locked_parts();
    assert_eq!(held, locked);
    assert_eq!(held, LockedParts(ResourceSet::of(&[Body::Base]).bits()));
    // Uncontested: nothing to tell the timeline.
    assert_eq!(r.events(), [] as [String; 0]);

    // Off the charger: the behavior cancels itself and every part is given back.
    r.docked(false);
    r.ticks(2);
    assert_eq!(r.runner.stack_names(), ["Root", "Idle"]);
    assert!(r.arbiter.lock().entries().is_empty());
    assert_eq!(
        r.runner.locked_parts(),
        (LockedParts::NONE, LockedParts::NONE)
    );

    // Cancelled from outside (the stack replaced) or interrupted mid-animation: the same.
    r.docked(true);
    r.ticks(2);
    assert_eq!(
        r.holder_of(Body::Base).as_deref(),
        Some("StayDocked/tracks")
    );
    let root = r.runner.id("Root").unwrap();
    r.runner.replace_stack(&[root]).unwrap();
    assert!(r.arbiter.lock().entries().is_empty());
    assert_eq!(r.runner.track_lock(stay), None);
}

#[test]
fn a_mission_below_the_lock_waits_for_it_and_one_above_takes_the_base_after_the_behaviors_work_stopped(
) {
    let mut r = robot(TREE);
    r.docked(true);
    r.ticks(2);
    assert_eq!(
        r.holder_of(Body::Base).as_deref(),
        Some("StayDocked/tracks")
    );

    // Below the lock's priority (the robot's default, 128): the mission waits.
    let low = r.drive(100);
    r.ticks(3);
    assert!(
        matches!(r.mc.phase(low), Some(Phase::Queued)),
        "{:?}",
        r.mc.phase(low)
    );
    assert_eq!(
        r.holder_of(Body::Base).as_deref(),
        Some("StayDocked/tracks")
    );
    assert_eq!(r.events(), ["waiting mission/drive base"]);

    // Above it: the lock is asked to halt; the runner stops the animation using the base
    // under it and gives the base up; the drive starts after that (halt before start); the
    // lock waits, visibly, and the behavior stays active.
    let high = r.drive(200);
    r.ticks(3);
    assert!(
        matches!(r.mc.phase(high), Some(Phase::Running)),
        "{:?}",
        r.mc.phase(high)
    );
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some("mission/drive"));
    assert_eq!(
        r.runner.stack_names(),
        ["Root", "StayDocked", "LookAroundOnCharger"]
    );
    let events = r.events();
    let at = |line: &str| {
        events
            .iter()
            .position(|e| e.starts_with(line))
            .unwrap_or_else(|| panic!("no `{line}` in {events:?}"))
    };
    assert!(
        at("released StayDocked/tracks base") < at("drive 200 started"),
        "halt before start: {events:?}"
    );
    assert!(at("waiting StayDocked/tracks base") < at("drive 200 started"));
    // While the drive holds the base, the animation loop waits for the lock: nothing of
    // the stack moves the base.
    let (held, locked) = r.runner.locked_parts();
    assert!(held.is_empty() && !locked.is_empty());
    assert_eq!(r.runner.next_wakeup(), Wakeup::EveryTick);

    // The drive is stopped (the queued one with it): the lock takes the base back, and the
    // animation loop resumes.
    r.mc.stop(Some("drive"), Priority(255));
    r.ticks(4);
    assert_eq!(
        r.holder_of(Body::Base).as_deref(),
        Some("StayDocked/tracks")
    );
    let events = r.events();
    assert_eq!(events, ["drive halted", "granted StayDocked/tracks base"]);
    assert_eq!(r.mc.phase(low), None, "stopped with the running one");
    let look = r.runner.id("LookAroundOnCharger").unwrap();
    assert_eq!(r.runner.action_of(look), Some("LookAround"));
    assert_eq!(r.holder_of(Body::Head).as_deref(), Some(LOOK));

    // A low drive waits again; the behavior ends: the drive gets the base.
    let low = r.drive(100);
    r.tick();
    assert_eq!(r.events(), ["waiting mission/drive base"]);
    r.docked(false);
    r.ticks(3);
    assert_eq!(r.runner.stack_names(), ["Root", "Idle"]);
    assert!(
        matches!(r.mc.phase(low), Some(Phase::Running)),
        "{:?}",
        r.mc.phase(low)
    );
    let events = r.events();
    assert!(
        events.contains(&"released StayDocked/tracks base".to_owned()),
        "{events:?}"
    );
}

#[test]
fn a_lock_that_cannot_hold_at_activation_waits_and_the_behavior_runs_meanwhile() {
    let mut r = robot(TREE);
    r.tick();
    let drive = r.drive(200);
    r.tick();
    assert!(matches!(r.mc.phase(drive), Some(Phase::Running)));
    assert_eq!(r.events(), ["drive 200 started"]);
    // The behavior activates anyway (the original's lock never fails); its lock waits for
    // the drive, visibly; its delegate's animation waits for the lock (it would move the
    // base under it) and holds nothing meanwhile.
    r.docked(true);
    r.ticks(3);
    assert_eq!(
        r.runner.stack_names(),
        ["Root", "StayDocked", "LookAroundOnCharger"]
    );
    assert_eq!(r.events(), ["waiting StayDocked/tracks base"]);
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some("mission/drive"));
    assert_eq!(r.holder_of(Body::Head), None);
    let look = r.runner.id("LookAroundOnCharger").unwrap();
    assert_eq!(r.runner.action_of(look), Some("LookAround"));
    // The drive ends: the lock holds, then the animation starts.
    r.mc.stop(Some("drive"), Priority(255));
    r.ticks(3);
    assert_eq!(
        r.events(),
        ["drive halted", "granted StayDocked/tracks base"]
    );
    assert_eq!(
        r.holder_of(Body::Base).as_deref(),
        Some("StayDocked/tracks")
    );
    assert_eq!(r.holder_of(Body::Head).as_deref(), Some(LOOK));
}

#[test]
fn a_behavior_without_tracks_or_a_runner_without_locks_locks_nothing() {
    // No track locks given to the runner: the key is checked and read, nothing is claimed.
    let t = load_tree(
        &original_behaviors::registry(),
        &[Source::new("tree.json", TREE)],
        "Root",
        &LoadOptions::default(),
    )
    .unwrap();
    let mut runner: Runner<UserIntent> = Runner::new(t, IntentComponent::new(&MAP));
    runner.robot_mut().on_charger = true;
    runner.tick(DT, &[]);
    runner.tick(DT, &[]);
    let stay = runner.id("StayDocked").unwrap();
    assert!(runner.is_on_stack(stay));
    assert_eq!(runner.track_lock(stay), None);
    // EVENT_TRACK alone moves nothing: no lock.
    let mut r = robot(&TREE.replace("\"BODY_TRACK\", ", ""));
    r.docked(true);
    r.ticks(2);
    let stay = r.runner.id("StayDocked").unwrap();
    assert!(r.runner.is_on_stack(stay));
    assert_eq!(r.runner.track_lock(stay), None);
    assert_eq!(r.holder_of(Body::Base).as_deref(), Some(LOOK));
}

#[test]
fn a_name_that_is_not_a_track_is_refused_by_the_loader_at_its_path() {
    let bad = TREE.replace("\"EVENT_TRACK\"", "\"BODY\"");
    let err = match load_tree::<UserIntent, ()>(
        &original_behaviors::registry(),
        &[Source::new("tree.json", &bad)],
        "Root",
        &LoadOptions::default(),
    ) {
        Ok(_) => panic!("loaded a tree locking `BODY`"),
        Err(e) => e,
    };
    let problems: Vec<String> = err
        .errors()
        .map(|p| format!("{}: {}", p.path, p.kind))
        .collect();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("$[1].tracksToLockWhileActivated[1]: ")
            && problems[0].contains("unknown name `BODY`"),
        "{problems:?}"
    );
}
