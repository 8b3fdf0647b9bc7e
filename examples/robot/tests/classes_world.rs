//! The world family of the original's classes (original-class-predicates.md §2.5 charger,
//! navigation, observing, exploring; §2.6 faces; §2.7 cube; §2.8 games; §2.10 dev and
//! self-test), table-driven, on the robot's own union: an idle robot on its treads starts
//! none of the classes whose predicate reads the world; each one's trigger starts it, it
//! does its first step and ends, and it does not start again without a new trigger; every
//! key of every class is accepted strictly, a wrong type and an unknown key are errors;
//! the intents the classes claim in code are claimed and counted; and the cached tick
//! equals the uncached one under random world changes and intents.

use std::time::Duration;

use original_behaviors::specs::{self, Need};
use original_behaviors::RobotAccessMut;
use proptest::prelude::*;
use robot_example::actions::Completions;
use robot_example::behavior_classes::load_sources;
use robot_example::intents::{self, UserIntent};
use robot_example::log::Log;
use robot_runtime::behavior::coverage;
use robot_runtime::behavior::{BehaviorId, LoadError, LoadOptions, Runner, Source};
use robot_runtime::intent::IntentSource;
use robot_runtime::union::CladUnion;
use serde_json::{json, Map, Value};

mod support;

const DT: Duration = Duration::from_millis(60);

/// The world family's classes: every class of these spec families that runs from the
/// tables.
fn family() -> Vec<&'static specs::ClassData> {
    specs::FAMILIES
        .iter()
        .filter(|(f, _)| ["navigation", "faces", "cubes", "games", "dev"].contains(f))
        .flat_map(|(_, c)| c.iter())
        .filter(|c| {
            original_behaviors::logic::get(c.name).is_some()
                && !original_behaviors::BUILTIN_CLASSES.contains(&c.name)
        })
        .collect()
}

/// A short animation standing in for each behavior the class's code names.
fn stubs(class: &str) -> Vec<(String, String)> {
    specs::class(class)
        .map(|c| c.hard_coded)
        .unwrap_or_default()
        .iter()
        .map(|id| {
            (
                format!("{id}.json"),
                json!({"behaviorID": id, "behaviorClass": "AnimSequence",
                    "animTriggers": ["StubAnim"]})
                .to_string(),
            )
        })
        .collect()
}

fn load(files: &[(String, String)]) -> Result<Runner<UserIntent>, LoadError> {
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let loaded = load_sources(
        &sources,
        "Root",
        &LoadOptions::with_stand_ins(),
        &Log::default(),
        &Completions::default(),
        &robot_runtime::arbiter::SharedArbiter::new(),
    )?;
    Ok(Runner::new(loaded.tree, intents::component()))
}

/// Root (strict priority, interrupting) over `behaviors`, then Idle; the stubs of their
/// classes' hard-coded IDs.
fn tree(behaviors: &[(String, Value)]) -> Vec<(String, String)> {
    let mut files = vec![(
        "idle.json".to_owned(),
        r#"{"behaviorID": "Idle", "behaviorClass": "Wait"}"#.to_owned(),
    )];
    let mut children = Vec::new();
    let mut stubbed: Vec<String> = Vec::new();
    for (id, b) in behaviors {
        children.push(json!(id));
        files.push((format!("{id}.json"), b.to_string()));
        let class = b["behaviorClass"].as_str().unwrap_or_default();
        for s in stubs(class) {
            if !stubbed.contains(&s.0) && !behaviors.iter().any(|(i, _)| format!("{i}.json") == s.0)
            {
                stubbed.push(s.0.clone());
                files.push(s);
            }
        }
    }
    children.push(json!("Idle"));
    files.push((
        "root.json".to_owned(),
        json!({"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
            "interruptActiveBehavior": true, "behaviors": children})
        .to_string(),
    ));
    files
}

/// How a case's class is triggered.
#[derive(Clone, Copy, Debug)]
enum Trigger {
    /// A robot-state patch (scenario `state`).
    State(&'static str),
    /// A pending user intent.
    Intent(&'static str),
}

/// One reactive class: its instance's keys, its trigger, the patch that takes the trigger
/// away (applied once it started), and the first thing it does (its own action's name
/// contains it, or a behavior of that name is on the stack above it).
struct Case {
    class: &'static str,
    keys: &'static str,
    trigger: Trigger,
    clear: &'static str,
    first: &'static str,
}

const CASES: &[Case] = &[
    Case {
        class: "DriveOffCharger",
        keys: r#"{"driveDirectionCues": ["left", "straight"]}"#,
        trigger: Trigger::State(r#"{"on_charger_platform": true}"#),
        clear: r#"{"on_charger_platform": false}"#,
        first: "DriveOffChargerLeft",
    },
    Case {
        class: "GoHome",
        keys: r#"{"useCliffSensorCorrection": true, "driveToRetryCount": 1,
            "turnToDockRetryCount": 1, "mountChargerRetryCount": 1,
            "nuzzleAnimTrigger": "ChargerDockingNuzzle"}"#,
        trigger: Trigger::State(r#"{"objects": [{"type": "Charger_Basic"}]}"#),
        clear: r#"{"objects": []}"#,
        first: "RobustChargerObservation",
    },
    Case {
        class: "ClearChargerArea",
        keys: r#"{"maxNumAttempts": 2, "tryToPickUpCube": true}"#,
        trigger: Trigger::State(r#"{"cube_in_charger_area": true}"#),
        clear: r#"{"cube_in_charger_area": false}"#,
        first: "PickupCube",
    },
    Case {
        class: "ConfirmObject",
        keys: r#"{"objectTypes": ["Charger_Basic"], "maxNumAttempts": 2}"#,
        trigger: Trigger::State(r#"{"objects": [{"type": "Charger_Basic"}]}"#),
        clear: r#"{"objects": []}"#,
        first: "ConfirmObject",
    },
    Case {
        class: "Exploring",
        keys: r#"{"minSearchRadius_m": 0.25, "maxSearchRadius_m": 1.0,
            "maxChargerDistance_m": 2.0, "pAcceptKnownAreas": 0.4}"#,
        trigger: Trigger::State(r#"{"objects": [{"type": "Charger_Basic"}]}"#),
        clear: r#"{"objects": []}"#,
        first: "Exploring",
    },
    Case {
        class: "ExploringExamineObstacle",
        keys: "{}",
        trigger: Trigger::State(r#"{"obstacle_detected": true}"#),
        clear: r#"{"obstacle_detected": false}"#,
        first: "ExploringHuhFar",
    },
    Case {
        class: "BumpObject",
        keys: r#"{"minDist_mm": 10, "maxDist_mm": 100}"#,
        trigger: Trigger::State(r#"{"prox_mm": 50}"#),
        clear: r#"{"prox_mm": null}"#,
        first: "PokeObjectGetIn",
    },
    Case {
        class: "ProxGetToDistance",
        keys: r#"{"goalDistance_mm": 50, "tolerence_mm": 5, "endWhenGoalReached": true}"#,
        trigger: Trigger::State(r#"{"prox_mm": 120}"#),
        clear: r#"{"prox_mm": 52}"#,
        first: "ProxGetToDistance",
    },
    Case {
        class: "DriveToFace",
        keys: r#"{"minDriveToFaceDistanceKey_mm": 100, "initialAnimation": "ComeHereGetIn",
            "timeUntilCancelFaceTrack_s": 1.0}"#,
        trigger: Trigger::Intent("imperative_come"),
        clear: "{}",
        first: "ComeHereGetIn",
    },
    Case {
        class: "LookAtMe",
        keys: r#"{"animGetIn": "LookAtMeGetIn", "animLoop": "LookAtMeLoop", "numLoops": 2}"#,
        trigger: Trigger::State(r#"{"faces": [{"distance_mm": 500}]}"#),
        clear: r#"{"faces": []}"#,
        first: "LookAtMeGetIn",
    },
    Case {
        class: "SayName",
        keys: "{}",
        trigger: Trigger::State(r#"{"faces": [{"name": "Ada"}]}"#),
        clear: r#"{"faces": []}"#,
        first: "MeetVictorSayNameAgain",
    },
    Case {
        class: "TurnToFace",
        keys: "{}",
        trigger: Trigger::State(r#"{"faces": [{"distance_mm": 500}]}"#),
        clear: r#"{"faces": []}"#,
        first: "TurnToFace",
    },
    Case {
        class: "InteractWithFaces",
        keys: r#"{"minTimeToTrackFaceLowerBound_s": 1, "minTimeToTrackFaceUpperBound_s": 2,
            "maxTimeToTrackFaceLowerBound_s": 3, "maxTimeToTrackFaceUpperBound_s": 4,
            "noEyeContactTimeout_s": 2, "trackingTimeout_s": 3,
            "minTrackingTiltAngle_deg": 4, "minTrackingPanAngle_deg": 4,
            "eyeContactWithinLast_ms": 500, "clampSmallAngles": false}"#,
        trigger: Trigger::State(r#"{"faces": [{"distance_mm": 500}]}"#),
        // The face stays: seen before it last ran, it does not start it again.
        clear: "{}",
        first: "InteractWithFacesInitialUnnamed",
    },
    Case {
        class: "EnrollFace",
        keys: "{}",
        trigger: Trigger::Intent("meet_victor"),
        clear: "{}",
        first: "EnrollFace",
    },
    Case {
        class: "RespondToRenameFace",
        keys: "{}",
        trigger: Trigger::State(r#"{"face_renamed": "Ada"}"#),
        clear: "{}",
        first: "MeetVictorSayName",
    },
    Case {
        class: "PickUpCube",
        keys: "{}",
        trigger: Trigger::State(r#"{"objects": [{"type": "Block_LIGHTCUBE1"}]}"#),
        clear: r#"{"objects": []}"#,
        first: "PickupCubePreperation",
    },
    Case {
        class: "PutDownBlockAtPose",
        keys: "{}",
        trigger: Trigger::State(r#"{"carrying_object": true}"#),
        clear: r#"{"carrying_object": false}"#,
        first: "PutDownBlockAtPose",
    },
    Case {
        class: "RollBlock",
        keys: "{}",
        trigger: Trigger::State(r#"{"objects": [{"type": "Block_LIGHTCUBE2"}]}"#),
        clear: r#"{"objects": []}"#,
        first: "RollBlock",
    },
    Case {
        class: "PopAWheelie",
        keys: "{}",
        trigger: Trigger::State(r#"{"objects": [{"type": "Block_LIGHTCUBE3"}]}"#),
        clear: r#"{"objects": []}"#,
        first: "PopAWheelieInitial",
    },
    Case {
        class: "PlaceCubeByCharger",
        keys: "{}",
        trigger: Trigger::State(r#"{"objects": [{"type": "Block_LIGHTCUBE1"}]}"#),
        clear: r#"{"objects": []}"#,
        first: "PickupCube",
    },
    Case {
        class: "TrackCube",
        keys: r#"{"maxTimeSinceObserved_ms": 1000}"#,
        trigger: Trigger::State(
            r#"{"objects": [{"type": "Block_LIGHTCUBE1", "distance_mm": 300}]}"#,
        ),
        // Nothing taken away: the cube stops being visible 1 s after it was seen.
        clear: "{}",
        first: "TrackCube",
    },
    Case {
        class: "DevTurnInPlaceTest",
        keys: r#"{"nRunsPerTest": 1}"#,
        trigger: Trigger::State(r#"{"dev_build": true}"#),
        clear: r#"{"dev_build": false}"#,
        first: "DevTurnInPlaceTest",
    },
    Case {
        class: "DevSquawkBoxTest",
        keys: "{}",
        trigger: Trigger::State(r#"{"dev_build": true}"#),
        clear: r#"{"dev_build": false}"#,
        first: "DevSquawkBoxTest",
    },
];

fn instance(id: &str, class: &str, keys: &str) -> (String, Value) {
    let mut o: Map<String, Value> = serde_json::from_str(keys).unwrap();
    o.insert("behaviorID".into(), json!(id));
    o.insert("behaviorClass".into(), json!(class));
    (id.to_owned(), Value::Object(o))
}

fn patch(r: &mut Runner<UserIntent>, p: &str) {
    let v: Value = serde_json::from_str(p).unwrap();
    let errors = r.robot_mut().apply_json(v.as_object().unwrap());
    assert_eq!(errors, [], "{p}");
}

fn trigger(r: &mut Runner<UserIntent>, t: Trigger) {
    match t {
        Trigger::State(p) => patch(r, p),
        Trigger::Intent(name) => {
            let tag = UserIntent::tag_from_name(name).unwrap();
            r.intents_mut()
                .set_pending(UserIntent::default_for(tag), IntentSource::Voice);
        }
    }
}

/// True when `me` does `what` now: its action's name contains it, or a behavior of that
/// name is on the stack.
fn doing(r: &Runner<UserIntent>, me: BehaviorId, what: &str) -> bool {
    r.action_of(me).is_some_and(|a| a.contains(what)) || r.stack_names().contains(&what)
}

fn idle(r: &mut Runner<UserIntent>, ticks: usize, why: &str) {
    for _ in 0..ticks {
        r.tick(DT, &[]);
        assert_eq!(r.errors(), [], "{why}");
        assert_eq!(r.stack_names(), ["Root", "Idle"], "{why}");
    }
}

#[test]
fn an_idle_robot_on_its_treads_starts_none_of_the_world_reactions() {
    let behaviors: Vec<(String, Value)> = CASES
        .iter()
        .map(|c| instance(c.class, c.class, c.keys))
        .collect();
    let mut r = load(&tree(&behaviors)).unwrap_or_else(|e| panic!("{e}"));
    idle(&mut r, 600, "an idle robot: 36 s, nothing happening");
    for c in CASES {
        let me = r.id(c.class).unwrap();
        assert_eq!(r.starts(me), 0, "{}", c.class);
    }
}

#[test]
fn each_world_reaction_starts_on_its_trigger_does_its_first_step_ends_and_waits_for_a_new_one() {
    let mut failures = Vec::new();
    for c in CASES {
        let files = tree(&[instance(c.class, c.class, c.keys)]);
        let mut r = load(&files).unwrap_or_else(|e| panic!("{}: {e}", c.class));
        let me = r.id(c.class).unwrap();
        idle(&mut r, 100, c.class);
        trigger(&mut r, c.trigger);
        let mut started = false;
        let mut did = false;
        for _ in 0..3 {
            r.tick(DT, &[]);
            started |= r.is_on_stack(me);
            did |= doing(&r, me, c.first);
            if started {
                break;
            }
        }
        if !started {
            failures.push(format!("{}: not started by {:?}", c.class, c.trigger));
            continue;
        }
        patch(&mut r, c.clear);
        let mut ended = false;
        for _ in 0..1000 {
            if !r.is_on_stack(me) {
                ended = true;
                break;
            }
            did |= doing(&r, me, c.first);
            r.tick(DT, &[]);
            assert_eq!(r.errors(), [], "{}", c.class);
        }
        if !did {
            failures.push(format!("{}: never did {}", c.class, c.first));
        }
        if !ended {
            failures.push(format!(
                "{}: never ended; stack {:?}",
                c.class,
                r.stack_names()
            ));
            continue;
        }
        let starts = r.starts(me);
        for _ in 0..300 {
            r.tick(DT, &[]);
        }
        if r.starts(me) != starts {
            failures.push(format!("{}: started again without a new trigger", c.class));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_classes_claim_the_intents_their_code_claims_and_coverage_counts_them() {
    for (class, intent) in [
        ("DriveToFace", "imperative_come"),
        ("EnrollFace", "meet_victor"),
    ] {
        let keys = CASES.iter().find(|c| c.class == class).unwrap().keys;
        let files = tree(&[instance(class, class, keys)]);
        let mut r = load(&files).unwrap();
        let me = r.id(class).unwrap();
        let tag = UserIntent::tag_from_name(intent).unwrap();
        let claimers = coverage::coverage(&r).claimers(tag).to_vec();
        assert!(
            claimers.iter().any(|c| c.behavior == me),
            "{class}: coverage does not count its claim of {intent}: {claimers:?}"
        );
        r.tick(DT, &[]);
        trigger(&mut r, Trigger::Intent(intent));
        r.tick(DT, &[]);
        let owner = r.intents().active().and_then(|a| a.owner().behavior());
        assert_eq!(owner, Some(me), "{class} claims {intent}");
    }
}

/// An instance of `class` with every key it reads (a key whose note names a required class
/// gets a behavior of that class).
fn full_instance(class: &specs::ClassData) -> Map<String, Value> {
    support::full_instance(class, "Under", &[], |k| match k.name {
        "findFaceBehavior" => json!("HelperFindFace"),
        _ => k.ty.sample("Helper"),
    })
}

fn key_tree(class: &specs::ClassData, under: Map<String, Value>) -> Vec<(String, String)> {
    let mut files = tree(&[("Under".to_owned(), Value::Object(under))]);
    files.push((
        "helper.json".into(),
        r#"{"behaviorID": "Helper", "behaviorClass": "Wait"}"#.into(),
    ));
    files.push((
        "helperFindFace.json".into(),
        r#"{"behaviorID": "HelperFindFace", "behaviorClass": "FindFaceAndThen",
            "timeUntilCancelFaceLooking_s": 1, "shouldLeaveChargerFirst": false}"#
            .into(),
    ));
    let _ = class;
    files
}

#[test]
fn every_key_of_every_world_class_is_read_strictly() {
    let classes = family();
    assert!(classes.len() >= 50, "{}", classes.len());
    let mut failures = Vec::new();
    for class in classes {
        let full = full_instance(class);
        if let Err(e) = load(&key_tree(class, full.clone())) {
            failures.push(format!("{}: every key given: {e}", class.name));
            continue;
        }
        let mut unknown = full.clone();
        unknown.insert("notAKeyOfThisClass".into(), json!(1));
        match load(&key_tree(class, unknown)) {
            Ok(_) => failures.push(format!("{}: an unknown key loads", class.name)),
            Err(e) if !e.to_string().contains("notAKeyOfThisClass") => {
                failures.push(format!("{}: the unknown key is not named: {e}", class.name))
            }
            Err(_) => {}
        }
        for k in class.keys {
            let Some(wrong) = k.ty.wrong() else {
                continue;
            };
            let mut bad = full.clone();
            bad.insert(k.name.to_owned(), wrong);
            match load(&key_tree(class, bad)) {
                Ok(_) => failures.push(format!("{}: a wrong `{}` loads", class.name, k.name)),
                Err(e) if !e.to_string().contains(&format!("$.{}", k.name)) => failures.push(
                    format!("{}: the wrong `{}` is not named: {e}", class.name, k.name),
                ),
                Err(_) => {}
            }
            if k.need == Need::Required {
                let mut missing = full.clone();
                missing.remove(k.name);
                match load(&key_tree(class, missing)) {
                    Ok(_) => failures.push(format!(
                        "{}: a missing required `{}` loads",
                        class.name, k.name
                    )),
                    Err(e) if !e.to_string().contains(k.name) => failures.push(format!(
                        "{}: the missing `{}` is not named: {e}",
                        class.name, k.name
                    )),
                    Err(_) => {}
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn face_selection_penalties_load_as_the_robots_files_give_them() {
    let files = |penalties: Value| {
        let mut t = tree(&[(
            "Watch".to_owned(),
            json!({"behaviorID": "Watch", "behaviorClass": "TrackFace",
                "faceSelectionPenalties": penalties}),
        )]);
        t.push((
            "ref.json".into(),
            json!({"behaviorID": "Ref", "behaviorClass": "AnimSequenceWithFace",
                "animTriggers": ["ExploringReferenceHuman"],
                "faceSelectionPenalties": penalties})
            .to_string(),
        ));
        t
    };
    let array = json!([{"factor": "RelativeBodyAngleRadians", "multiplier": 0.5},
        {"factor": "UnnamedFace", "multiplier": 1000}]);
    load(&files(array)).unwrap();
    load(&files(json!({"Distance_m": 4, "TrackingOnly": 100}))).unwrap();
    for bad in [
        json!([{"factor": "Nose", "multiplier": 1}]),
        json!([{"factor": "UnnamedFace"}]),
        json!("UnnamedFace"),
    ] {
        let e = load(&files(bad.clone())).err().unwrap().to_string();
        assert!(e.contains("faceSelectionPenalties"), "{bad}: {e}");
        assert_eq!(
            e.matches("$.faceSelectionPenalties").count(),
            2,
            "both classes: {e}"
        );
    }
}

/// One change to the world or the intents.
#[derive(Clone, Debug)]
enum Change {
    State(Value),
    Intent(&'static str),
}

fn change() -> impl Strategy<Value = Change> {
    let states = [
        json!({"objects": [{"type": "Charger_Basic"}]}),
        json!({"objects": [{"type": "Block_LIGHTCUBE1", "distance_mm": 200}]}),
        json!({"objects": []}),
        json!({"faces": [{"distance_mm": 400}]}),
        json!({"faces": [{"name": "Ada"}]}),
        json!({"faces": []}),
        json!({"prox_mm": 50}),
        json!({"prox_mm": 130}),
        json!({"prox_mm": null}),
        json!({"obstacle_detected": true}),
        json!({"obstacle_detected": false}),
        json!({"on_charger_platform": true}),
        json!({"on_charger_platform": false}),
        json!({"on_charger": true}),
        json!({"on_charger": false}),
        json!({"carrying_object": true}),
        json!({"carrying_object": false}),
        json!({"cube_in_charger_area": true}),
        json!({"cube_in_charger_area": false}),
        json!({"face_renamed": "Bo"}),
        json!({"dev_build": true}),
        json!({"off_treads": "InAir"}),
        json!({"off_treads": "OnTreads"}),
    ];
    prop_oneof![
        proptest::sample::select(states.to_vec()).prop_map(Change::State),
        proptest::sample::select(vec!["imperative_come", "meet_victor", "weather_response"])
            .prop_map(Change::Intent),
    ]
}

fn family_tree() -> Vec<(String, String)> {
    let mut behaviors: Vec<(String, Value)> = CASES
        .iter()
        .map(|c| instance(c.class, c.class, c.keys))
        .collect();
    // And the classes that hold on an idle robot, below the reactions.
    behaviors.push(instance(
        "LookAround",
        "LookAroundInPlace",
        r#"{"params": {"behavior_RecentLocationsMax": 2,
            "behavior_DistanceFromRecentLocationMin_mm": 100, "behavior_AngleOfFocus_deg": 30,
            "behavior_NumberOfScansBeforeStop": 1}}"#,
    ));
    behaviors.push(instance("Wiggle", "WiggleOntoChargerContacts", "{}"));
    tree(&behaviors)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Cached and asked-every-time runners agree on every tick, and nothing panics.
    #[test]
    fn the_cached_tick_equals_the_uncached_one_on_the_world_family(
        steps in proptest::collection::vec((change(), 1u64..40), 1..30),
    ) {
        let files = family_tree();
        let mut cached = load(&files).unwrap();
        let mut asked = load(&files).unwrap();
        asked.set_caching(false);
        for (c, gap) in &steps {
            for r in [&mut cached, &mut asked] {
                match c {
                    Change::State(v) => {
                        let _ = r.robot_mut().apply_json(v.as_object().unwrap());
                    }
                    Change::Intent(name) => {
                        let tag = UserIntent::tag_from_name(name).unwrap();
                        r.intents_mut()
                            .set_pending(UserIntent::default_for(tag), IntentSource::Voice);
                    }
                }
            }
            for _ in 0..*gap {
                cached.tick(DT, &[]);
                asked.tick(DT, &[]);
                prop_assert_eq!(support::seen(&cached), support::seen(&asked), "{:?}", c);
                prop_assert_eq!(cached.errors(), []);
            }
        }
    }
}

#[test]
fn look_around_in_place_does_not_run_again_where_it_ran_when_it_keeps_places() {
    let files = tree(&[instance(
        "LookAround",
        "LookAroundInPlace",
        r#"{"params": {"behavior_RecentLocationsMax": 2,
            "behavior_DistanceFromRecentLocationMin_mm": 100, "behavior_AngleOfFocus_deg": 30,
            "behavior_NumberOfScansBeforeStop": 1, "s2_WaitAnimTrigger": "LookInPlaceForFacesBodyPause"}}"#,
    )]);
    let mut r = load(&files).unwrap();
    let me = r.id("LookAround").unwrap();
    r.tick(DT, &[]);
    assert!(r.is_on_stack(me), "it has not run here yet");
    let mut ticks = 0;
    let mut paused = false;
    while r.is_on_stack(me) {
        paused |= r.action_of(me) == Some("LookInPlaceForFacesBodyPause");
        r.tick(DT, &[]);
        ticks += 1;
        assert!(ticks < 2000, "one sweep with a cone ends");
    }
    assert!(paused, "the sweep plays its pause");
    idle(&mut r, 200, "it ran here: the robot has not moved");
}
