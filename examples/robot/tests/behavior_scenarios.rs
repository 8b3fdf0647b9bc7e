//! The intent scenarios of the original robot, run through behaviors on our real
//! `schemas/userIntent.clad` + `schemas/user_intent_map.json` (generated `UserIntent`,
//! `USER_INTENT_MAP`) and the example tree `behaviors/tree.json`: cloud result → pending →
//! claimed by the responding behavior within the claim window → active → deactivated when
//! that behavior ends; unclaimed intents reach `ReactToUnclaimedIntent`.

use std::time::Duration;

use robot_example::clad::anki::vector::{UserIntentTimeInSeconds, UserIntentVoid};
use robot_example::clad::cloud_mic::{IntentResult, Message};
use robot_example::intents::{self, Tag, UserIntent};
use robot_runtime::behavior::coverage::{self, ClaimVia};
use robot_runtime::behavior::{load_tree, LoadOptions, Runner, Source};
use robot_runtime::intent::{
    CloudEvent, DeactivateReason, IntakeOutcome, IntentEvent, IntentSource,
};
use robot_runtime::wire::Wire;

const TREE: &str = include_str!("../behaviors/tree.json");
const DT: Duration = Duration::from_millis(60);
/// The component's claim deadline (3 ticks, the original's).
const CLAIM_WINDOW: usize = 3;

fn runner() -> Runner<UserIntent> {
    let tree = load_tree(
        &original_behaviors::registry(),
        &[Source::new("behaviors/tree.json", TREE)],
        "GlobalInterruptions",
        &LoadOptions::default(),
    )
    .unwrap();
    let mut r = Runner::new(tree, intents::component());
    tick(&mut r, 2);
    assert_eq!(
        r.stack_names(),
        ["GlobalInterruptions", "HighLevelAI", "Observe"]
    );
    r
}

fn tick(r: &mut Runner<UserIntent>, n: usize) {
    for _ in 0..n {
        r.tick(DT, &[]);
        r.check_invariants().unwrap();
        assert_eq!(r.errors(), []);
    }
}

/// The cloud process's bytes for a result.
fn cloud(r: &mut Runner<UserIntent>, intent: &str, parameters: &str) -> IntakeOutcome<Tag> {
    let bytes = Message::Result(IntentResult {
        intent: intent.into(),
        parameters: parameters.into(),
        metadata: String::new(),
    })
    .pack()
    .unwrap();
    let event: CloudEvent = intents::receive(&bytes).unwrap();
    r.intents_mut().handle_cloud(event)
}

/// Ticks until nothing is pending; returns the ticks it took.
fn ticks_to_claim(r: &mut Runner<UserIntent>) -> usize {
    for k in 1..=CLAIM_WINDOW {
        tick(r, 1);
        if r.intents().pending().is_none() {
            return k;
        }
    }
    panic!(
        "not claimed within {CLAIM_WINDOW} ticks; stack {:?}",
        r.stack_names()
    );
}

#[test]
fn a_cloud_fist_bump_is_claimed_by_its_behavior_and_released_when_it_ends() {
    let mut r = runner();
    let outcome = cloud(&mut r, "intent_play_fistbump", "{}");
    assert!(matches!(
        outcome,
        IntakeOutcome::Pending {
            tag: Tag::PlayFistbump,
            ..
        }
    ));
    assert_eq!(ticks_to_claim(&mut r), 1, "claimed on the first tick");
    assert_eq!(
        r.stack_names(),
        ["GlobalInterruptions", "FistBumpVoiceCommand"]
    );
    let active = r.intents().active().unwrap();
    assert_eq!(active.tag(), Tag::PlayFistbump);
    assert_eq!(r.owner_name(active.owner()), Some("FistBumpVoiceCommand"));
    assert_eq!(active.source(), IntentSource::Voice);
    // The animation lasts 0.5 s; the intent is deactivated on the tick the behavior ends.
    let mut ended_at = None;
    for k in 0..12 {
        tick(&mut r, 1);
        if !r.is_on_stack(r.id("FistBumpVoiceCommand").unwrap()) {
            ended_at = Some(k);
            assert!(!r.intents().is_any_active(), "released on the same tick");
            break;
        }
        assert!(r.intents().is_active(Tag::PlayFistbump));
    }
    assert!(ended_at.is_some());
    tick(&mut r, 1);
    // The Deactivated event is reported with the reason Released (not GuardDropped).
    assert!(r.intent_events().iter().any(|e| matches!(
        e,
        IntentEvent::Deactivated {
            tag: Tag::PlayFistbump,
            reason: DeactivateReason::Released,
            ..
        }
    )));
    tick(&mut r, 1);
    assert_eq!(
        r.stack_names(),
        ["GlobalInterruptions", "HighLevelAI", "Observe"]
    );
}

#[test]
fn a_timer_with_parameters_is_claimed_and_its_payload_is_kept() {
    let mut r = runner();
    cloud(
        &mut r,
        "intent_clock_settimer_extend",
        r#"{"timer_duration":"300"}"#,
    );
    ticks_to_claim(&mut r);
    assert_eq!(r.top(), r.id("TimerSet"));
    assert_eq!(
        r.intents().active().unwrap().intent(),
        &UserIntent::SetTimer(UserIntentTimeInSeconds { time_s: 300 })
    );
}

#[test]
fn a_simple_voice_response_plays_its_animation_group() {
    let mut r = runner();
    let outcome = cloud(&mut r, "intent_greeting_hello", "{}");
    assert!(
        matches!(
            outcome,
            IntakeOutcome::Pending {
                tag: Tag::SimpleVoiceResponse,
                ..
            }
        ),
        "{outcome:?}"
    );
    ticks_to_claim(&mut r);
    assert_eq!(r.top(), r.id("SimpleVoiceResponses"));
    assert!(r.is_running_action(r.id("SimpleVoiceResponses").unwrap()));
    assert_eq!(
        r.owner_name(r.intents().active().unwrap().owner()),
        Some("SimpleVoiceResponses")
    );
    tick(&mut r, 6);
    assert!(!r.intents().is_any_active());
}

#[test]
fn an_intent_nobody_claims_reaches_react_to_unclaimed_intent() {
    let mut r = runner();
    // `weather_response` has no handler in this tree.
    let outcome = cloud(
        &mut r,
        "intent_weather_extend",
        r#"{"condition":"Sunny","is_forecast":"false","local_datetime":"","speakable_location_string":"Paris","temperature":"20","temperature_unit":"C"}"#,
    );
    assert!(
        matches!(
            outcome,
            IntakeOutcome::Pending {
                tag: Tag::WeatherResponse,
                ..
            }
        ),
        "{outcome:?}"
    );
    let mut reacted = false;
    for _ in 0..CLAIM_WINDOW + 2 {
        tick(&mut r, 1);
        if r.top() == r.id("ReactToUnclaimedIntent") {
            reacted = true;
            break;
        }
    }
    assert!(reacted, "stack {:?}", r.stack_names());
    assert!(!r.intents().was_unclaimed(), "the behavior resets the flag");
    assert!(r.intents().pending().is_none());
    tick(&mut r, 10);
    assert_eq!(
        r.stack_names(),
        ["GlobalInterruptions", "HighLevelAI", "Observe"]
    );
}

#[test]
fn an_unmatched_cloud_intent_also_goes_unclaimed_in_this_tree() {
    let mut r = runner();
    let outcome = cloud(&mut r, "intent_that_does_not_exist", "{}");
    assert!(matches!(
        outcome,
        IntakeOutcome::Pending {
            tag: Tag::UnmatchedIntent,
            ..
        }
    ));
    tick(&mut r, CLAIM_WINDOW + 1);
    assert_eq!(r.top(), r.id("ReactToUnclaimedIntent"));
}

#[test]
fn high_level_ai_claims_explore_start_in_a_state_and_resumes_observing() {
    let mut r = runner();
    cloud(&mut r, "intent_explore_start", "{}");
    ticks_to_claim(&mut r);
    let hlai = r.id("HighLevelAI").unwrap();
    assert_eq!(r.debug_state(hlai), Some("ExploringVoiceCommand"));
    // The state's intent is owned by the state's behavior (as the original activated it
    // through that behavior).
    assert_eq!(
        r.owner_name(r.intents().active().unwrap().owner()),
        Some("Explore")
    );
    assert_eq!(r.top(), r.id("Explore"));
    // Explore lasts 1 s, then the exit transition returns to Observing and the state's
    // intent is released.
    tick(&mut r, 20);
    assert_eq!(r.debug_state(hlai), Some("Observing"));
    assert!(!r.intents().is_any_active());
    // A higher-priority intent interrupts HighLevelAI; it resumes afterwards.
    r.intents_mut().set_pending(
        UserIntent::PlayFistbump(UserIntentVoid {}),
        IntentSource::App,
    );
    tick(&mut r, 1);
    assert_eq!(r.top(), r.id("FistBumpVoiceCommand"));
    tick(&mut r, 12);
    assert_eq!(r.debug_state(hlai), Some("Observing"));
    assert!(r.is_on_stack(hlai));
}

#[test]
fn coverage_of_the_real_union_treats_test_members_as_test_only() {
    let r = runner();
    let cov = coverage::coverage(&r);
    let fist = cov.claimers(Tag::PlayFistbump);
    assert_eq!(fist.len(), 1);
    assert_eq!(fist[0].name, "FistBumpVoiceCommand");
    assert_eq!(fist[0].via, ClaimVia::RespondToUserIntents);
    // From HighLevelAI's Observing state, for the behavior of the state that activates it.
    assert!(cov
        .claimers(Tag::ExploreStart)
        .iter()
        .any(|c| c.name == "Explore" && c.state.as_deref() == Some("Observing")));
    let unclaimed = cov.unclaimed::<UserIntent>();
    assert!(unclaimed.contains(&Tag::WeatherResponse));
    assert!(!unclaimed.contains(&Tag::PlayFistbump));
    for t in &unclaimed {
        assert!(
            !coverage::is_test_only::<UserIntent>(*t),
            "{t:?} is test-only"
        );
    }
    assert!(coverage::is_test_only::<UserIntent>(Tag::TestSeparator));
}

#[test]
fn the_completed_intents_table_passes_on_our_tree() {
    let table = r#"{
      // the original's completedUserIntents + testUserIntentTransitions, as one table
      "namedStacks": {
        "highLevelAI_stack": ["GlobalInterruptions", "HighLevelAI", "Observe"]
      },
      "intents": {
        "fist_bump": {"type": "play_fistbump"},
        "set_timer": {"type": "set_timer", "time_s": 20},
        "explore": {"type": "explore_start"},
        "weather": {"type": "weather_response", "speakableLocationString": "", "temperature": "", "isForecast": "", "localDateTime": "", "condition": "", "temperatureUnit": ""}
      },
      "expectations": [
        {"label": "fist_bump", "stack": "highLevelAI_stack", "handler": "FistBumpVoiceCommand"},
        {"label": "set_timer", "stack": "highLevelAI_stack", "handler": "TimerSet"},
        {"label": "explore", "stack": "highLevelAI_stack", "handler": "HighLevelAI", "anywhereInStack": true}
      ],
      "exceptions": [
        {"label": "weather", "stack": "highLevelAI_stack", "reason": "no weather behavior in the example robot"}
      ]
    }"#;
    let fails = coverage::check_completed_intents(table, runner);
    assert!(fails.is_empty(), "{fails:#?}");
}

#[test]
fn garbage_trees_are_load_errors_never_panics() {
    let reg = original_behaviors::registry::<UserIntent, ()>();
    let opts = LoadOptions::default();
    let garbage = [
        "",
        "//",
        "/*",
        "\"",
        "[{}]",
        "[{\"behaviorID\": \"A\", \"behaviorClass\": \"Wait\", \"respondToUserIntents\": 5}]",
        "[{\"behaviorID\": \"A\", \"behaviorClass\": \"Wait\", \"respondToUserIntents\": [{\"type\": \"set_timer\", \"time_s\": \"x\"}]}]",
        "[{\"behaviorID\": \"A\", \"behaviorClass\": \"HighLevelAI\", \"states\": [], \"initialState\": \"X\"}]",
        "[{\"behaviorID\": \"A\", \"behaviorClass\": \"Wait\", \"duration_s\": -1}]",
        "[{\"behaviorID\": \"A\", \"behaviorClass\": \"Wait\", \"wantsToBeActivatedCondition\": {\"conditionType\": \"Compound\", \"and\": 3}}]",
        "[{\"behaviorID\": \"A\", \"behaviorClass\": \"Wait\", \"anonymousBehaviors\": [{\"behaviorName\": \"A\"}]}]",
    ];
    for g in garbage {
        assert!(
            load_tree(&reg, &[Source::new("g.json", g)], "A", &opts).is_err(),
            "{g:?}"
        );
    }
    // Bytes that are not even UTF-8 JSON: every prefix of the real tree fails cleanly.
    for cut in (0..TREE.len()).step_by(97) {
        if let Some(prefix) = TREE.get(..cut) {
            let _ = load_tree(
                &reg,
                &[Source::new("cut.json", prefix)],
                "GlobalInterruptions",
                &opts,
            );
        }
    }
}
