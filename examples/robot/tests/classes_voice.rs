//! The voice family of `original_behaviors` (original-class-predicates.md §2.3) on the
//! robot's own union and maps: an idle robot starts none of them; each starts on its trigger
//! (a pending intent through the cloud map, the trigger word, a `state` patch), does what
//! the spec says and ends; every intent a class claims in code is claimed by it when the
//! cloud sends it; keys are read as the class table says; the cached tick equals the
//! uncached one.

use std::time::Duration;

use original_behaviors::{RobotAccess, RobotAccessMut};
use proptest::prelude::*;
use robot_example::actions::Completions;
use robot_example::behavior_classes::load_sources;
use robot_example::intents::{self, UserIntent, USER_INTENT_MAP};
use robot_example::log::Log;
use robot_runtime::behavior::{coverage, LoadOptions, ProblemKind, Runner, Severity, Source};
use robot_runtime::intent::{CloudEvent, IntakeOutcome, IntentEvent};
use robot_runtime::union::CladUnion;

mod support;

const DT: Duration = Duration::from_millis(60);

/// A tree of the family's classes under one strict-priority root, with the behaviors their
/// code names, and an idle behavior last. One file per behavior, named after its ID.
fn files(extra_keys: &str) -> Vec<(String, String)> {
    let anim = |id: &str| {
        format!(
            r#"{{"behaviorID": "{id}", "behaviorClass": "PlayAnimation", "animation": "anim_{id}", "length_s": 0.5}}"#
        )
    };
    let mut f: Vec<(String, String)> = vec![
        (
            "Root".into(),
            r#"{"behaviorID": "Root", "behaviorClass": "DispatcherStrictPriority",
              "interruptActiveBehavior": true,
              "behaviors": ["TriggerWordDetected", "TimerUtilityCoordinator", "WeatherResponses",
                "TakeAPhotoCoordinator", "SingletonWallTimeCoordinator", "SimpleVoiceResponses",
                "Volume", "EyeColorVoiceCommand", "EyeColor", "Idle"]}"#
                .into(),
        ),
        (
            "TriggerWordDetected".into(),
            format!(
                r#"{{"behaviorID": "TriggerWordDetected", "behaviorClass": "ReactToVoiceCommand",
                  "behaviorOnIntent": "TurnToVoice",
                  "notifyOnCloudErrors": {{"recentOccurrence": {{"numberOfTimes": 2, "amountOfSeconds": 600}}}}{extra_keys}}}"#
            ),
        ),
        (
            "TurnToVoice".into(),
            r#"{"behaviorID": "TurnToVoice", "behaviorClass": "ReactToMicDirection", "reaction_list": {}}"#.into(),
        ),
        (
            "TimerUtilityCoordinator".into(),
            r#"{"behaviorID": "TimerUtilityCoordinator", "behaviorClass": "TimerUtilityCoordinator",
              "minValidTimer_s": 10, "maxValidTimer_s": 3600, "touchTimeToCancelTimer_ms": 500,
              "anticConfig": [{"recurIntervalMin_s": 20, "recurIntervalMax_s": 30, "ruleMin_s": 60}]}"#
                .into(),
        ),
        (
            "WeatherResponses".into(),
            r#"{"behaviorID": "WeatherResponses", "behaviorClass": "CoordinateWeather",
              "responseMap": [{"CladType": "Sunny", "BehaviorID": "DisplayWeatherSunny"}]}"#
                .into(),
        ),
        (
            "DisplayWeatherSunny".into(),
            r#"{"behaviorID": "DisplayWeatherSunny", "behaviorClass": "DisplayWeather",
              "animationName": "anim_weather_sunny"}"#
                .into(),
        ),
        (
            "TakeAPhotoCoordinator".into(),
            r#"{"behaviorID": "TakeAPhotoCoordinator", "behaviorClass": "TakeAPhotoCoordinator"}"#
                .into(),
        ),
        (
            "SingletonWallTimeCoordinator".into(),
            r#"{"behaviorID": "SingletonWallTimeCoordinator", "behaviorClass": "WallTimeCoordinator",
              "respondToUserIntents": [{"type": "show_clock"}]}"#
                .into(),
        ),
        (
            "SimpleVoiceResponses".into(),
            r#"{"behaviorID": "SimpleVoiceResponses", "behaviorClass": "SimpleVoiceResponse"}"#
                .into(),
        ),
        (
            "Volume".into(),
            r#"{"behaviorID": "Volume", "behaviorClass": "Volume"}"#.into(),
        ),
        (
            "EyeColorVoiceCommand".into(),
            r#"{"behaviorID": "EyeColorVoiceCommand", "behaviorClass": "EyeColorVoiceCommand"}"#
                .into(),
        ),
        (
            "EyeColor".into(),
            r#"{"behaviorID": "EyeColor", "behaviorClass": "EyeColor"}"#.into(),
        ),
        (
            "Idle".into(),
            r#"{"behaviorID": "Idle", "behaviorClass": "Wait"}"#.into(),
        ),
    ];
    for id in [
        "IntentUnmatched",
        "TriggerWordWithoutIntent",
        "NoCloud",
        "NoWifi",
        "SingletonTimerRinging",
        "SingletonTimerSet",
        "SingletonTimerAlreadySet",
        "SingletonCancelTimer",
        "SingletonTimerAntic",
        "SingletonAnticShowClock",
        "SingletonTimerCheckTime",
        "SingletonICantDoThat",
        "SingletonFindFaceInFrontWallTime",
        "ShowWallTime",
        "FrameFaces",
        "DriveOffChargerFace",
    ] {
        f.push((id.into(), anim(id)));
    }
    f
}

fn load(
    files: &[(String, String)],
) -> Result<Runner<UserIntent>, Vec<robot_runtime::behavior::Problem>> {
    let names: Vec<String> = files.iter().map(|(id, _)| format!("{id}.json")).collect();
    let sources: Vec<Source<'_>> = files
        .iter()
        .zip(&names)
        .map(|((_, t), n)| Source::new(n, t))
        .collect();
    match load_sources(
        &sources,
        "Root",
        &LoadOptions::with_stand_ins(),
        &Log::default(),
        &Completions::default(),
        &robot_runtime::arbiter::SharedArbiter::new(),
    ) {
        Ok(l) => {
            let errors: Vec<_> = l
                .report
                .problems
                .iter()
                .filter(|p| p.severity == Severity::Error)
                .cloned()
                .collect();
            if errors.is_empty() {
                Ok(Runner::new(l.tree, intents::component()))
            } else {
                Err(errors)
            }
        }
        Err(e) => Err(e.problems),
    }
}

fn runner() -> Runner<UserIntent> {
    load(&files("")).unwrap_or_else(|p| panic!("{p:#?}"))
}

fn idle(r: &mut Runner<UserIntent>, ticks: usize) {
    for _ in 0..ticks {
        r.tick(DT, &[]);
        assert_eq!(r.errors(), [], "{:?}", r.stack_names());
    }
}

fn until_idle(r: &mut Runner<UserIntent>) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..2000 {
        r.tick(DT, &[]);
        assert_eq!(r.errors(), []);
        for n in r.stack_names() {
            if !seen.contains(&n.to_string()) {
                seen.push(n.to_string());
            }
        }
        if r.stack_names() == ["Root", "Idle"] {
            return seen;
        }
    }
    panic!("never back to idle: {:?}", r.stack_names());
}

fn patch(r: &mut Runner<UserIntent>, v: serde_json::Value) {
    let errors = r.robot_mut().apply_json(v.as_object().unwrap());
    assert!(errors.is_empty(), "{errors:?}");
}

/// A cloud intent name the robot's map turns into `member`, and its parameters.
fn cloud_name(member: &str) -> &'static str {
    USER_INTENT_MAP
        .cloud
        .iter()
        .find(|e| {
            UserIntent::tag_name(e.tag) == member
                && e.feature_gate.is_none_or(intents::stock_features)
        })
        .unwrap_or_else(|| panic!("no cloud intent maps to {member}"))
        .intent
}

fn send(r: &mut Runner<UserIntent>, member: &str, params: &str) {
    let out = r
        .intents_mut()
        .handle_cloud(CloudEvent::result(cloud_name(member), params));
    assert!(
        matches!(out, IntakeOutcome::Pending { .. }),
        "{member}: {out:?}"
    );
}

#[test]
fn an_idle_robot_starts_none_of_the_voice_classes() {
    let mut r = runner();
    idle(&mut r, 500);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
}

#[test]
fn the_trigger_word_listens_and_leaves_a_heard_intent_pending_for_the_tree() {
    let mut r = runner();
    idle(&mut r, 10);
    r.intents_mut().set_trigger_word_pending(true, false);
    r.tick(DT, &[]);
    let me = r.id("TriggerWordDetected").unwrap();
    assert!(r.is_on_stack(me));
    assert_eq!(r.action_of(me), Some("VC_ListeningGetIn"));
    idle(&mut r, 40);
    assert!(r.is_on_stack(me), "listens up to 5 s");
    // "Louder": heard; it stays pending (the claim deadline held) while the get-out plays.
    send(&mut r, "imperative_volumeup", "{}");
    r.tick(DT, &[]);
    assert_eq!(r.action_of(me), Some("VC_ListeningGetOut"));
    let seen = until_idle(&mut r);
    assert!(seen.contains(&"Volume".to_string()), "{seen:?}");
    assert_eq!(r.robot().signals.volume, 4, "one step up from the default");
    idle(&mut r, 200);
    assert_eq!(
        r.stack_names(),
        ["Root", "Idle"],
        "no new trigger, no new start"
    );
}

#[test]
fn unmatched_and_silence_are_claimed_by_the_voice_command_and_answered() {
    for (member, answer) in [
        ("unmatched_intent", "IntentUnmatched"),
        ("silence", "TriggerWordWithoutIntent"),
    ] {
        let mut r = runner();
        r.intents_mut().set_trigger_word_pending(true, false);
        r.tick(DT, &[]);
        let tag = UserIntent::tag_from_name(member).unwrap();
        r.intents_mut()
            .set_pending_tag(tag, robot_runtime::intent::IntentSource::Voice);
        let seen = until_idle(&mut r);
        assert!(seen.contains(&answer.to_string()), "{member}: {seen:?}");
        assert!(!r.intents().is_pending(tag));
    }
}

#[test]
fn cloud_errors_notify_at_the_configured_count() {
    let mut r = runner();
    // First timeout: the neutral animation; the second within 600 s: NoCloud.
    r.intents_mut().set_trigger_word_pending(true, false);
    r.tick(DT, &[]);
    let me = r.id("TriggerWordDetected").unwrap();
    let mut played = Vec::new();
    for _ in 0..300 {
        r.tick(DT, &[]);
        played.extend(r.action_of(me).map(str::to_owned));
    }
    assert!(played.iter().any(|a| a == "VC_IntentNeutral"), "{played:?}");
    r.intents_mut().set_trigger_word_pending(true, false);
    let seen = until_idle(&mut r);
    assert!(seen.contains(&"NoCloud".to_string()), "{seen:?}");
    patch(&mut r, serde_json::json!({"wifi_configured": false}));
    r.intents_mut().set_trigger_word_pending(true, false);
    let seen = until_idle(&mut r);
    assert!(
        !seen.contains(&"NoWifi".to_string()),
        "one wifi error is below no threshold: never notifies"
    );
}

#[test]
fn a_whitelist_drops_other_intents_as_unknown() {
    let f = files(r#", "whiteListedIntents": [{"type": "set_timer"}]"#);
    let mut r = load(&f).unwrap_or_else(|p| panic!("{p:#?}"));
    r.intents_mut().set_trigger_word_pending(true, false);
    r.tick(DT, &[]);
    send(&mut r, "imperative_volumeup", "{}");
    let seen = until_idle(&mut r);
    assert!(seen.contains(&"IntentUnmatched".to_string()), "{seen:?}");
    assert!(!seen.contains(&"Volume".to_string()), "dropped: {seen:?}");
}

#[test]
fn volume_levels_and_notifications() {
    let mut r = runner();
    send(
        &mut r,
        "imperative_volumelevel",
        r#"{"volume_level": "VOLUME_1"}"#,
    );
    r.tick(DT, &[]);
    let me = r.id("Volume").unwrap();
    assert_eq!(r.action_of(me), Some("VolumeLevel1"));
    until_idle(&mut r);
    assert_eq!(r.robot().signals.volume, 1);
    // A notification heard in scope starts it; none pending, no start.
    patch(&mut r, serde_json::json!({"volume_changed": true}));
    r.tick(DT, &[]);
    assert_eq!(r.action_of(me), Some("VolumeLevel1"));
    until_idle(&mut r);
    idle(&mut r, 100);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
}

#[test]
fn eye_color_commands_write_the_setting_and_eye_color_reacts() {
    let mut r = runner();
    send(
        &mut r,
        "imperative_eyecolor_specific",
        r#"{"eye_color": "COLOR_PURPLE"}"#,
    );
    let seen = until_idle(&mut r);
    let command = r.id("EyeColorVoiceCommand").unwrap();
    assert_eq!(
        r.starts(command),
        1,
        "a new color: it writes it and ends at once"
    );
    assert!(seen.contains(&"EyeColor".to_string()), "{seen:?}");
    assert_eq!(r.robot().signals.eye_color, 5);
    assert_eq!(r.robot().signals.eye_color_update, None);
    // The same color again: the command plays the animations itself.
    send(
        &mut r,
        "imperative_eyecolor_specific",
        r#"{"eye_color": "COLOR_PURPLE"}"#,
    );
    r.tick(DT, &[]);
    let me = r.id("EyeColorVoiceCommand").unwrap();
    assert_eq!(r.action_of(me), Some("EyeColorGetIn"));
    until_idle(&mut r);
    idle(&mut r, 100);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
}

#[test]
fn the_timer_is_set_rings_and_is_checked_and_stopped() {
    let mut r = runner();
    send(&mut r, "check_timer", "{}");
    let seen = until_idle(&mut r);
    assert!(
        seen.contains(&"SingletonICantDoThat".to_string()),
        "{seen:?}"
    );
    send(&mut r, "set_timer", r#"{"timer_duration": "5"}"#);
    let seen = until_idle(&mut r);
    assert!(
        seen.contains(&"SingletonICantDoThat".to_string()),
        "under 10 s: {seen:?}"
    );
    assert!(r.robot().signals.timer.is_none());
    send(&mut r, "set_timer", r#"{"timer_duration": "20"}"#);
    let seen = until_idle(&mut r);
    assert!(seen.contains(&"SingletonTimerSet".to_string()), "{seen:?}");
    assert!(r.robot().signals.timer.is_some());
    send(&mut r, "set_timer", r#"{"timer_duration": "20"}"#);
    let seen = until_idle(&mut r);
    assert!(
        seen.contains(&"SingletonTimerAlreadySet".to_string()),
        "{seen:?}"
    );
    // It rings at 0 s left (the timer cleared).
    let mut rang = false;
    for _ in 0..600 {
        r.tick(DT, &[]);
        rang |= r.stack_names().contains(&"SingletonTimerRinging");
    }
    assert!(rang);
    assert!(r.robot().signals.timer.is_none());
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
}

#[test]
fn weather_is_shown_by_the_mapped_display_or_answered_i_cant() {
    let mut r = runner();
    let sunny = r#"{"condition": "Sunny", "temperature": "20", "speakable_location_string": "Paris", "is_forecast": "false", "temperature_unit": "C", "local_datetime": "2026-01-01T12:00", "day_or_night": "DAY"}"#;
    // Send through the map's weather entry: its parameters are the report's fields.
    let tag = UserIntent::tag_from_name("weather_response").unwrap();
    let name = cloud_name("weather_response");
    let out = r
        .intents_mut()
        .handle_cloud(CloudEvent::result(name, sunny));
    assert!(matches!(out, IntakeOutcome::Pending { .. }), "{out:?}");
    let seen = until_idle(&mut r);
    assert!(
        seen.contains(&"DisplayWeatherSunny".to_string()),
        "{seen:?}"
    );
    assert!(!r.intents().is_pending(tag));
    let rain = r#"{"condition": "Rain", "temperature": "20", "speakable_location_string": "Paris", "is_forecast": "false", "temperature_unit": "C", "local_datetime": "2026-01-01T12:00", "day_or_night": "DAY"}"#;
    let _ = r.intents_mut().handle_cloud(CloudEvent::result(name, rain));
    let seen = until_idle(&mut r);
    assert!(
        seen.contains(&"SingletonICantDoThat".to_string()),
        "unmapped: {seen:?}"
    );
    assert!(!r.intents().is_pending(tag));
}

#[test]
fn photos_clocks_and_simple_responses() {
    let mut r = runner();
    send(&mut r, "take_a_photo", r#"{"entity_photo_selfie": ""}"#);
    r.tick(DT, &[]);
    let me = r.id("TakeAPhotoCoordinator").unwrap();
    assert!(r.is_on_stack(me));
    until_idle(&mut r);
    patch(&mut r, serde_json::json!({"storage_full": true}));
    send(&mut r, "take_a_photo", r#"{"entity_photo_selfie": ""}"#);
    assert!(until_idle(&mut r).contains(&"SingletonICantDoThat".to_string()));
    send(&mut r, "show_clock", "{}");
    assert!(until_idle(&mut r).contains(&"ShowWallTime".to_string()));
    patch(&mut r, serde_json::json!({"wall_time_known": false}));
    send(&mut r, "show_clock", "{}");
    assert!(until_idle(&mut r).contains(&"SingletonICantDoThat".to_string()));
    idle(&mut r, 100);
    assert_eq!(r.stack_names(), ["Root", "Idle"]);
}

/// Every intent the family's classes claim in code, sent through the robot's cloud map to
/// an idle robot, is claimed by the class that claims it (and counted by coverage).
#[test]
fn every_intent_claimed_in_code_is_claimed_by_its_class() {
    let table: &[(&str, &str, &str)] = &[
        (
            "imperative_volumelevel",
            "Volume",
            r#"{"volume_level": "VOLUME_3"}"#,
        ),
        ("imperative_volumeup", "Volume", "{}"),
        ("imperative_volumedown", "Volume", "{}"),
        (
            "imperative_eyecolor_specific",
            "EyeColorVoiceCommand",
            r#"{"eye_color": "COLOR_GREEN"}"#,
        ),
        ("imperative_eyecolor", "EyeColorVoiceCommand", "{}"),
        (
            "take_a_photo",
            "TakeAPhotoCoordinator",
            r#"{"entity_photo_selfie": ""}"#,
        ),
        (
            "weather_response",
            "DisplayWeatherSunny",
            r#"{"condition": "Sunny", "temperature": "20", "speakable_location_string": "Paris", "is_forecast": "false", "temperature_unit": "C", "local_datetime": "2026-01-01T12:00", "day_or_night": "DAY"}"#,
        ),
        (
            "set_timer",
            "TimerUtilityCoordinator",
            r#"{"timer_duration": "60"}"#,
        ),
        (
            "global_stop",
            "TimerUtilityCoordinator",
            r#"{"what_to_stop": "timer"}"#,
        ),
        ("check_timer", "TimerUtilityCoordinator", "{}"),
    ];
    let r0 = runner();
    let cov = coverage::coverage(&r0);
    for (member, class, params) in table {
        let mut r = runner();
        idle(&mut r, 5);
        let out = r
            .intents_mut()
            .handle_cloud(CloudEvent::result(cloud_name(member), *params));
        assert!(
            matches!(out, IntakeOutcome::Pending { .. }),
            "{member}: {out:?}"
        );
        let tag = UserIntent::tag_from_name(member).unwrap();
        let me = r.id(class).unwrap();
        let mut claimed = false;
        for _ in 0..4 {
            r.tick(DT, &[]);
            claimed |= r.intent_events().iter().any(|e| {
                matches!(e, IntentEvent::Activated { tag: t, owner, .. }
                    if *t == tag && owner.behavior() == Some(me))
            });
        }
        assert!(
            claimed,
            "{member} not claimed by {class}: {:?}",
            r.stack_names()
        );
        if *class != "DisplayWeatherSunny" {
            assert!(
                cov.claimers(tag).iter().any(|c| c.behavior == me),
                "{member}: coverage does not count {class}"
            );
        }
    }
}

#[test]
fn keys_are_read_as_the_class_table_says() {
    // Every key of ReactToVoiceCommand accepted in strict mode.
    let all = r#", "earConAudioEventBegin": "A", "earConAudioEventSuccess": "B",
      "earConAudioEventNeutral": "C", "backpackLights": false, "animListeningGetIn": "G",
      "animListeningLoop": "L", "animListeningGetOut": "O", "exitAfterGetIn": false,
      "exitAfterListeningIfNotStreaming": true, "pushResponse": true,
      "notifyOnWifiErrors": {"recentOccurrence": {"numberOfTimes": 3}},
      "whiteListedIntents": [{"type": "set_timer"}], "listenTimeout_s": 4.0"#;
    load(&files(all)).unwrap_or_else(|p| panic!("{p:#?}"));
    // A wrong type, an unknown key: errors at the key.
    for (extra, key) in [
        (r#", "backpackLights": "yes""#, "backpackLights"),
        (r#", "animListeningLoop": 3"#, "animListeningLoop"),
        (r#", "huhAnimation": "anim_huh""#, "huhAnimation"),
        (
            r#", "notifyOnCloudErrors": {"recentOccurrence": {"numberOfTimes": -1}}"#,
            "notifyOnCloudErrors",
        ),
    ] {
        let f = files(extra).into_iter().map(|(id, t)| {
            // Replace the default notifyOnCloudErrors when the case sets it.
            if key == "notifyOnCloudErrors" && id == "TriggerWordDetected" {
                (id, t.replacen(r#""notifyOnCloudErrors": {"recentOccurrence": {"numberOfTimes": 2, "amountOfSeconds": 600}},"#, "", 1))
            } else {
                (id, t)
            }
        }).collect::<Vec<_>>();
        let problems = load(&f).err().unwrap_or_else(|| panic!("{extra} loaded"));
        assert!(
            problems
                .iter()
                .any(|p| p.path.contains(key) || format!("{:?}", p.kind).contains(key)),
            "{extra}: {problems:#?}"
        );
    }
    // The timer's keys: required ones missing, a negative one.
    let f: Vec<_> = files("")
        .into_iter()
        .map(|(id, t)| {
            if id == "TimerUtilityCoordinator" {
                (
                    id,
                    t.replace(r#""minValidTimer_s": 10, "#, "")
                        .replace("3600", "-1"),
                )
            } else {
                (id, t)
            }
        })
        .collect();
    let problems = load(&f).err().unwrap_or_else(|| panic!("loaded: {f:?}"));
    assert!(problems
        .iter()
        .any(|p| matches!(&p.kind, ProblemKind::MissingKey { key } if key == "minValidTimer_s")));
    assert!(problems.iter().any(
        |p| matches!(&p.kind, ProblemKind::WrongType { key, .. } if key == "maxValidTimer_s")
    ));
    // DisplayWeather needs its animation.
    let f: Vec<_> = files("")
        .into_iter()
        .map(|(id, t)| {
            if id == "DisplayWeatherSunny" {
                (
                    id,
                    t.replace(
                        r#""animationName": "anim_weather_sunny""#,
                        r#""imageLayouts": []"#,
                    ),
                )
            } else {
                (id, t)
            }
        })
        .collect();
    let Err(problems) = load(&f) else {
        panic!("loaded without animationName")
    };
    assert!(problems
        .iter()
        .any(|p| matches!(&p.kind, ProblemKind::MissingKey { key } if key == "animationName")));
}

#[test]
fn every_key_of_every_class_in_the_tree_is_accepted_strict_a_wrong_type_and_an_unknown_key_are_errors(
) {
    let mut failures = Vec::new();
    let mut tested = 0;
    for (id, text) in files("") {
        let original: serde_json::Value = serde_json::from_str(&text).unwrap();
        let class = original["behaviorClass"].as_str().unwrap().to_owned();
        let Some(data) = original_behaviors::specs::voice::CLASSES
            .iter()
            .find(|c| c.name == class)
        else {
            continue;
        };
        tested += 1;
        // The tree's instance, with every key of the table given.
        let mut full = original.as_object().unwrap().clone();
        full.extend(support::full_instance(data, &id, &[], |k| {
            match k.name {
                // It must name a mic-direction reaction.
                "behaviorOnIntent" => serde_json::json!("TurnToVoice"),
                _ => k.ty.sample("Idle"),
            }
        }));
        let with = |o: &serde_json::Map<String, serde_json::Value>| -> Vec<(String, String)> {
            files("")
                .into_iter()
                .map(|(i, t)| {
                    if i == id {
                        (i, serde_json::Value::Object(o.clone()).to_string())
                    } else {
                        (i, t)
                    }
                })
                .collect()
        };
        let names = |p: &[robot_runtime::behavior::Problem], key: &str| {
            p.iter()
                .any(|p| p.path.ends_with(key) || format!("{:?}", p.kind).contains(key))
        };
        if let Err(p) = load(&with(&full)) {
            failures.push(format!("{class}: every key given: {p:?}"));
            continue;
        }
        for k in data.keys {
            if let Some(bad) = k.ty.wrong() {
                let mut o = full.clone();
                o.insert(k.name.into(), bad);
                match load(&with(&o)) {
                    Err(p) if names(&p, k.name) => {}
                    other => {
                        failures.push(format!("{class}.{}: wrong type: {:?}", k.name, other.err()))
                    }
                }
            }
        }
        let mut o = full.clone();
        o.insert("notAKeyOfThisClass".into(), serde_json::json!(1));
        match load(&with(&o)) {
            Err(p) if names(&p, "notAKeyOfThisClass") => {}
            other => failures.push(format!("{class}: unknown key: {:?}", other.err())),
        }
    }
    assert!(tested >= 10, "{tested} classes of the family in the tree");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[derive(Clone, Debug)]
enum Input {
    Tick(u8),
    Intent(usize),
    TriggerWord,
    Patch(usize),
}

const INTENTS: &[(&str, &str)] = &[
    ("imperative_volumeup", "{}"),
    ("imperative_eyecolor", "{}"),
    ("take_a_photo", r#"{"entity_photo_selfie": "selfie"}"#),
    ("set_timer", r#"{"timer_duration": "12"}"#),
    ("global_stop", r#"{"what_to_stop": "timer"}"#),
    ("check_timer", "{}"),
    ("show_clock", "{}"),
    (
        "weather_response",
        r#"{"condition": "Sunny", "temperature": "20", "speakable_location_string": "Paris", "is_forecast": "false", "temperature_unit": "C", "local_datetime": "2026-01-01T12:00", "day_or_night": "DAY"}"#,
    ),
    ("unmatched_intent", "{}"),
];

fn patches() -> Vec<serde_json::Value> {
    vec![
        serde_json::json!({"volume_changed": true}),
        serde_json::json!({"eye_color_update": true}),
        serde_json::json!({"storage_full": true}),
        serde_json::json!({"wall_time_known": false}),
        serde_json::json!({"timer_s": 3}),
        serde_json::json!({"touched": true}),
        serde_json::json!({"touched": false}),
        serde_json::json!({"picked_up": true}),
        serde_json::json!({"picked_up": false}),
        serde_json::json!({"wifi_configured": false}),
    ]
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        4 => (1u8..40).prop_map(Input::Tick),
        2 => (0..INTENTS.len()).prop_map(Input::Intent),
        1 => Just(Input::TriggerWord),
        2 => (0..10usize).prop_map(Input::Patch),
    ]
}

fn apply(r: &mut Runner<UserIntent>, i: &Input) {
    match i {
        Input::Tick(_) => {}
        Input::Intent(k) => {
            let (member, params) = INTENTS[*k];
            if member == "unmatched_intent" {
                let t = UserIntent::tag_from_name(member).unwrap();
                r.intents_mut()
                    .set_pending_tag(t, robot_runtime::intent::IntentSource::Voice);
            } else {
                let _ = r
                    .intents_mut()
                    .handle_cloud(CloudEvent::result(cloud_name(member), params));
            };
        }
        Input::TriggerWord => {
            r.intents_mut().set_trigger_word_pending(true, false);
        }
        Input::Patch(k) => {
            let p = &patches()[*k];
            let _ = r.robot_mut().apply_json(p.as_object().unwrap());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// The cached tick equals asking every class every tick, on the family's tree, with
    /// random intents, trigger words and state patches; nothing panics or errs.
    #[test]
    fn the_cached_tick_equals_the_uncached_one(inputs in proptest::collection::vec(input(), 1..40)) {
        let mut cached = runner();
        let mut plain = runner();
        plain.set_caching(false);
        for i in &inputs {
            apply(&mut cached, i);
            apply(&mut plain, i);
            let n = if let Input::Tick(n) = i { *n } else { 1 };
            for _ in 0..n {
                cached.tick(DT, &[]);
                plain.tick(DT, &[]);
                prop_assert_eq!(cached.stack_names(), plain.stack_names());
                prop_assert_eq!(cached.errors(), plain.errors());
                prop_assert_eq!(cached.intents().pending_tag(), plain.intents().pending_tag());
            }
        }
    }
}
