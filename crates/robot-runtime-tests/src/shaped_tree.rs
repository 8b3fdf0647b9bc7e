//! Behavior trees shaped like the original robot's, generated for tests and benchmarks: one
//! behavior per file, a strict-priority spine (`InitNormalOperation` → `ModeSelector` → a
//! pass-through → `GlobalInterruptions`), groups of reactions under every kind of dispatcher
//! (strict priority with `linkScope`, strict priority with cooldowns, queues, random
//! dispatchers behind a condition), animation sequences, timed wrappers, classes of the
//! original engine that run as stand-ins, conditions of many types, anonymous behaviors,
//! voice handlers with `respondToUserIntents` over the test union, and a HighLevelAI with
//! ten states at the bottom. Most reactions of queue and random groups are anonymous
//! behaviors in their group's file, so a tree of 350 files holds about 430 behaviors, as the
//! original's does. Deterministic for a given size and seed.
//!
//! The tree loads with zero problems in strict mode with stand-ins
//! (`LoadOptions::with_stand_ins()`); its base behavior is `InitNormalOperation`.

use std::fmt::Write;

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Activation conditions the reactions use: false in the default robot state, so the tree
/// idles in HighLevelAI until the state changes.
const CONDITIONS: &[&str] = &[
    r#"{"conditionType": "OffTreadsState", "targetState": "InAir", "minTimeSinceChange_ms": 200}"#,
    r#"{"conditionType": "OffTreadsState", "targetState": "OnBack"}"#,
    r#"{"conditionType": "Compound", "and": [{"conditionType": "OnCharger"}, {"conditionType": "BatteryLevel", "targetBatteryLevel": "Low"}]}"#,
    r#"{"conditionType": "ObjectKnown", "objectTypes": ["Block_LIGHTCUBE1"], "maxAge_ms": 5000}"#,
    r#"{"conditionType": "Emotion", "emotion": "Stimulated", "min": 0.8}"#,
    r#"{"conditionType": "CliffDetected", "numCliffDetectionsToTrigger": 2}"#,
    r#"{"conditionType": "Compound", "not": {"conditionType": "FeatureGate", "feature": "Exploring"}}"#,
    r#"{"conditionType": "RobotHeldInPalm", "shouldBeHeldInPalm": true}"#,
    r#"{"conditionType": "BeingHeld", "shouldBeHeld": true, "minTimeSinceChange_ms": 500}"#,
    r#"{"conditionType": "Compound", "or": [{"conditionType": "HighTemperature"}, {"conditionType": "TooHotToCharge"}]}"#,
    r#"{"conditionType": "UserIsHoldingCube"}"#,
    r#"{"conditionType": "SimpleMood", "mood": "HighStim"}"#,
    r#"{"conditionType": "TimedDedup", "dedupInterval_ms": 2000, "subCondition": {"conditionType": "MotionDetected"}}"#,
    r#"{"conditionType": "BecameTrueThisTick", "subCondition": {"conditionType": "OnChargerPlatform"}}"#,
    r#"{"conditionType": "FaceKnown", "maxFaceDist_mm": 800}"#,
    r#"{"conditionType": "StuckOnEdge"}"#,
];

/// Activation conditions that wait on time or keep state between evaluations (time since
/// entering scope, since a change, durations, ages, cooldowns, "became true", dedup
/// intervals, first detections, per-tick transitions): [`varied_tree`] adds them to
/// `CONDITIONS`, for the property tests of the wake-up and caching contracts.
pub const TIMED_CONDITIONS: &[&str] = &[
    r#"{"conditionType": "TimerInRange", "begin_s": 2}"#,
    r#"{"conditionType": "TimerInRange", "begin_s": 0.5, "end_s": 3}"#,
    r#"{"conditionType": "Compound", "not": {"conditionType": "TimerInRange", "begin_s": 1.2}}"#,
    r#"{"conditionType": "OffTreadsState", "targetState": "OnTreads", "minTimeSinceChange_ms": 1500, "maxTimeSinceChange_ms": 4000}"#,
    r#"{"conditionType": "BeingHeld", "shouldBeHeld": false, "minTimeSinceChange_ms": 800, "maxTimeSinceChange_ms": 6000}"#,
    r#"{"conditionType": "RobotHeldInPalm", "shouldBeHeldInPalm": false, "minDuration_s": 1, "maxDuration_s": 5}"#,
    r#"{"conditionType": "CliffDetected", "numCliffDetectionsToTrigger": 1, "minDuration_ms": 400, "maxDuration_ms": 2000}"#,
    r#"{"conditionType": "BehaviorTimer", "timerName": "Socializing", "cooldown_s": 3}"#,
    r#"{"conditionType": "ObjectKnown", "objectTypes": ["Block_LIGHTCUBE1"], "maxAge_ms": 0}"#,
    r#"{"conditionType": "ObjectKnown", "objectTypes": ["Block_LIGHTCUBE1"], "maxAge_ms": 1500}"#,
    r#"{"conditionType": "ObjectInitialDetection", "objectTypes": ["Block_LIGHTCUBE1"], "firstTimeOnly": true}"#,
    r#"{"conditionType": "RobotTouched", "minTouchTime": 1.5}"#,
    r#"{"conditionType": "RobotPoked", "wasPokedRecentlyTimeThreshold_sec": 2}"#,
    r#"{"conditionType": "FaceKnown", "maxFaceAge_s": 3}"#,
    r#"{"conditionType": "SimpleMood", "from": "Default", "to": "HighStim"}"#,
    r#"{"conditionType": "BehaviorSuggested", "postBehaviorSuggestion": "Nothing", "maxTicksForSuggestion": 30}"#,
    r#"{"conditionType": "Compound", "and": [{"conditionType": "TimedDedup", "dedupInterval_ms": 1500, "subCondition": {"conditionType": "CliffDetected"}}, {"conditionType": "TrueCondition"}]}"#,
    r#"{"conditionType": "BecameTrueThisTick", "subCondition": {"conditionType": "BeingHeld", "shouldBeHeld": true}}"#,
];

/// Classes of the original engine without references and without required keys, that
/// stand-ins (or the class tables) run.
const STAND_IN_CLASSES: &[&str] = &[
    "ReactToRobotOnBack",
    "ReactToRobotOnFace",
    "ReactToRobotOnSide",
    "ReactToUnexpectedMovement",
    "ReactToHand",
    "ReactToPlacedOnSlope",
    "ReactToFrustration",
    "AskForHelp",
    "PounceWithProx",
    "RollBlock",
    "PopAWheelie",
    "LookAtMe",
    "TurnToFace",
    "FistBump",
    "DriveOffCharger",
    "ExploringExamineObstacle",
];

/// The voice intents of the test union the handlers respond to.
const INTENTS: &[&str] = &[
    "greeting_goodmorning",
    "imperative_come",
    "imperative_lookoverthere",
    "meet_victor",
    "set_timer",
    "weather_response",
    "knowledge_response",
];

/// One file: its name and text (with the required keys its class table asks for and the
/// body does not give, [`with_required_keys`]).
fn file(out: &mut Vec<(String, String)>, dir: &str, id: &str, body: &str) {
    let body = with_required_keys(body);
    out.push((
        format!("{dir}/{}.json", id.to_lowercase()),
        format!("// {id}.json\n{{\"behaviorID\": \"{id}\", {body}}}\n"),
    ));
}

/// `body` (the keys of one behavior, without braces) plus a plain value for every key its
/// class's table (`original_behaviors::specs`) requires and the body does not give:
/// what a tree written for the original gives, so an instance of any class loads strictly.
/// Keys naming behaviors are left to the body.
pub fn with_required_keys(body: &str) -> String {
    use original_behaviors::specs::{self, KeyType, Need};
    let class = body
        .split("\"behaviorClass\": \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next());
    let Some(data) = class.and_then(specs::class) else {
        return body.to_owned();
    };
    let mut out = body.to_owned();
    for key in data.keys {
        if key.need != Need::Required || body.contains(&format!("\"{}\"", key.name)) {
            continue;
        }
        let value = match key.ty {
            KeyType::Bool => "false".to_owned(),
            KeyType::Int | KeyType::UInt | KeyType::Float => "1".to_owned(),
            KeyType::Str | KeyType::Trigger | KeyType::AudioEvent | KeyType::LocaleKey => {
                format!("\"{}Value\"", key.name)
            }
            KeyType::Array | KeyType::IntentMatchers | KeyType::FacePenalties => "[]".to_owned(),
            KeyType::Object => "{}".to_owned(),
            KeyType::Graph => r#"{"nodes": [{"x": 0, "y": 1}]}"#.to_owned(),
            KeyType::Condition => r#"{"conditionType": "TrueCondition"}"#.to_owned(),
            KeyType::Enum(names) => format!("\"{}\"", names.first().copied().unwrap_or("")),
            KeyType::Id | KeyType::Ids | KeyType::Any => continue,
        };
        out.push_str(&format!(", \"{}\": {value}", key.name));
    }
    out
}

fn list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    format!("[{}]", quoted.join(", "))
}

/// A leaf reaction's keys (without its ID): an animation, a timed wrapper or a stand-in,
/// behind a condition.
fn leaf_body(rng: &mut Rng, id: &str, condition: Option<&str>) -> String {
    let cond = condition
        .map(|c| format!(", \"wantsToBeActivatedCondition\": {c}"))
        .unwrap_or_default();
    match rng.below(6) {
        0 | 1 => format!(
            "\"behaviorClass\": \"AnimSequence\", \"animTriggers\": [\"{id}Anim\"]{cond}"
        ),
        2 => format!(
            "\"behaviorClass\": \"AnimSequence\", \"animTriggers\": [\"{id}In\", \"{id}Out\"], \"num_loops\": 2{cond}"
        ),
        3 => format!(
            "\"behaviorClass\": \"Turn\", \"shouldTurnClockwise\": true, \"turnDegrees\": 90{cond}"
        ),
        _ => format!("\"behaviorClass\": \"{}\"{cond}", rng.pick(STAND_IN_CLASSES)),
    }
}

/// A tree of about `files` files (at least 40), shaped like the original's.
pub fn tree(files: usize, seed: u64) -> Vec<(String, String)> {
    tree_with(files, seed, CONDITIONS)
}

/// [`tree`] whose reactions also wait on time and keep state ([`TIMED_CONDITIONS`]).
pub fn varied_tree(files: usize, seed: u64) -> Vec<(String, String)> {
    let conditions: Vec<&str> = CONDITIONS.iter().chain(TIMED_CONDITIONS).copied().collect();
    tree_with(files, seed, &conditions)
}

fn tree_with(files: usize, seed: u64, conditions: &[&str]) -> Vec<(String, String)> {
    let mut rng = Rng(seed);
    let mut out: Vec<(String, String)> = Vec::new();
    // The spine.
    file(
        &mut out,
        "",
        "InitNormalOperation",
        r#""behaviorClass": "DispatcherStrictPriorityWithCooldown", "interruptActiveBehavior": false,
  "behaviors": [{"behavior": "NormalWakeUp", "cooldown_s": -1}, {"behavior": "ModeSelector", "cooldown_s": 0}]"#,
    );
    file(
        &mut out,
        "",
        "NormalWakeUp",
        r#""behaviorClass": "AnimSequence", "animTriggers": ["WakeUp"]"#,
    );
    file(
        &mut out,
        "",
        "ModeSelector",
        r#""behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
  "behaviors": ["LowBatteryMode", "QuietMode", "Coordinator"]"#,
    );
    file(
        &mut out,
        "modes",
        "LowBatteryMode",
        r#""behaviorClass": "AnimSequence", "animTriggers": ["LowBattery"],
  "wantsToBeActivatedCondition": {"conditionType": "BatteryLevel", "targetBatteryLevel": "Low"}"#,
    );
    file(
        &mut out,
        "modes",
        "QuietMode",
        r#""behaviorClass": "QuietModeCoordinator", "activeTime_s": 30.0, "timeToPowerSave_s": 15.0,
  "behaviors": [{"behavior": "LowBatteryMode", "audioAllowed": false}],
  "wantsToBeActivatedCondition": {"conditionType": "AlexaInteractionActive"}"#,
    );
    file(
        &mut out,
        "",
        "Coordinator",
        r#""behaviorClass": "DispatcherPassThrough", "delegateID": "GlobalInterruptions""#,
    );
    // Groups of reactions under every kind of dispatcher, and voice handlers; the rest of
    // the files go there.
    let fixed = out.len() + 2 + 1 + 10 + 14 + 1;
    let budget = files.max(40).saturating_sub(fixed);
    let mut groups: Vec<String> = Vec::new();
    let mut made = 0;
    let mut g = 0;
    while made < budget {
        let name = format!("Group{g}");
        let dir = format!("group{g}");
        let size = 3 + rng.below(8);
        let kind = g % 5;
        let mut kids = Vec::new();
        let mut anonymous = Vec::new();
        for k in 0..size {
            let id = format!("{name}Reaction{k}");
            let cond = conditions[rng.below(conditions.len())];
            if kind == 4 && k < INTENTS.len() {
                // Voice handlers: respond to an intent.
                let intent = INTENTS[(g + k) % INTENTS.len()];
                let class = match rng.below(3) {
                    0 => "\"behaviorClass\": \"AnimSequence\", \"animTriggers\": [\"Voice\"]",
                    1 => "\"behaviorClass\": \"FistBump\"",
                    _ => "\"behaviorClass\": \"LookAtMe\"",
                };
                file(
                    &mut out,
                    &dir,
                    &id,
                    &format!("{class}, \"respondToUserIntents\": [{{\"type\": \"{intent}\"}}]"),
                );
                made += 1;
            } else if matches!(kind, 2 | 3) && rng.below(4) > 0 {
                // Most of a queue's or random dispatcher's reactions are anonymous: declared
                // in the group's own file, as the original's often are.
                let id = format!("{}reaction{k}", name.to_lowercase());
                let body = with_required_keys(&leaf_body(&mut rng, &id, Some(cond)));
                anonymous.push(format!("{{\"behaviorName\": \"{id}\", {body}}}"));
                kids.push(id);
                continue;
            } else {
                let body = leaf_body(&mut rng, &id, Some(cond));
                file(&mut out, &dir, &id, &body);
                made += 1;
            }
            kids.push(id);
        }
        made += 1;
        let anonymous_key = if anonymous.is_empty() {
            String::new()
        } else {
            format!(", \"anonymousBehaviors\": [{}]", anonymous.join(", "))
        };
        let body = match kind {
            0 | 4 => format!(
                "\"behaviorClass\": \"DispatcherStrictPriority\", \"interruptActiveBehavior\": true, \"linkScope\": true, \"behaviors\": {}",
                list(&kids)
            ),
            1 => {
                let entries: Vec<String> = kids
                    .iter()
                    .map(|k| {
                        format!(
                            "{{\"behavior\": \"{k}\", \"cooldown_s\": {}, \"cooldown_random_factor\": 0.5}}",
                            10 * (1 + rng.below(30))
                        )
                    })
                    .collect();
                format!(
                    "\"behaviorClass\": \"DispatcherStrictPriorityWithCooldown\", \"interruptActiveBehavior\": false, \"linkScope\": true, \"behaviors\": [{}]",
                    entries.join(", ")
                )
            }
            2 => format!(
                "\"behaviorClass\": \"DispatcherQueue\", \"wantsToBeActivatedCondition\": {}, \"behaviors\": {}{anonymous_key}",
                conditions[rng.below(conditions.len())],
                list(&kids)
            ),
            _ => {
                let entries: Vec<String> = kids
                    .iter()
                    .map(|k| format!("{{\"behavior\": \"{k}\", \"weight\": {}.0, \"cooldown_s\": 0}}", 1 + rng.below(3)))
                    .collect();
                format!(
                    "\"behaviorClass\": \"DispatcherRandom\", \"wantsToBeActivatedCondition\": {}, \"behaviors\": [{}]{anonymous_key}",
                    conditions[rng.below(conditions.len())],
                    entries.join(", ")
                )
            }
        };
        file(&mut out, &dir, &name, &body);
        groups.push(name);
        g += 1;
    }
    // Global interruptions: the groups, the unclaimed-intent reaction, HighLevelAI.
    let mut gi = groups.clone();
    gi.push("ReactToUnclaimedIntent".into());
    gi.push("HighLevelAI".into());
    file(
        &mut out,
        "",
        "GlobalInterruptions",
        &format!(
            "\"behaviorClass\": \"DispatcherStrictPriority\", \"interruptActiveBehavior\": true, \"behaviors\": {}",
            list(&gi)
        ),
    );
    file(
        &mut out,
        "",
        "ReactToUnclaimedIntent",
        r#""behaviorClass": "ReactToUnclaimedIntent", "emotionEventOnActivated": "NoValidVoiceIntent""#,
    );
    // HighLevelAI: ten states, their behaviors (global IDs), PutDownBlock.
    let states = [
        "ObservingOnCharger",
        "ObservingOnChargerRecentlyPlaced",
        "ObservingDriveOffCharger",
        "DriveOffChargerIntoSocializing",
        "Observing",
        "Exploring",
        "ExploringVoiceCommand",
        "InvestigateHeldCube",
        "Socializing",
        "PlayingWithCube",
    ];
    let mut s_json = String::new();
    for (i, s) in states.iter().enumerate() {
        let extra = if *s == "ExploringVoiceCommand" {
            ", \"activateIntent\": \"imperative_come\""
        } else {
            ""
        };
        let _ = write!(
            s_json,
            "{}{{\"name\": \"{s}\", \"behavior\": \"{s}Behavior\"{extra}}}",
            if i > 0 { ", " } else { "" }
        );
    }
    file(
        &mut out,
        "highLevelAI",
        "HighLevelAI",
        &format!(
            r#""behaviorClass": "HighLevelAI", "initialState": "ObservingOnCharger",
  "socializeKnownFaceCooldown_s": 300, "playWithCubeCooldown_s": 600,
  "playWithCubeOnChargerCooldown_s": 900, "maxFaceDistanceToSocialize_mm": 1000,
  "states": [{s_json}],
  "transitionDefinitions": [
    {{"from": "*", "nonInterruptingTransitions": [
      {{"to": "ExploringVoiceCommand", "condition": {{"conditionType": "UserIntentPending", "list": [{{"type": "imperative_come"}}]}}}}]}},
    {{"from": "ObservingOnCharger", "interruptingTransitions": [
      {{"to": "Observing", "condition": {{"conditionType": "Compound", "not": {{"conditionType": "OnCharger"}}}}}}]}},
    {{"from": "Observing", "nonInterruptingTransitions": [
      {{"to": "Socializing", "condition": {{"customCondition": "CloseFaceForSocializing"}}}},
      {{"to": "PlayingWithCube", "condition": {{"customCondition": "CloseCubeForPlaying"}}}},
      {{"to": "Exploring", "condition": {{"conditionType": "Compound", "and": [{{"customCondition": "BoredOfObserving"}}, {{"customCondition": "ExploringCooldownMet"}}]}}}}],
     "interruptingTransitions": [
      {{"to": "ObservingOnChargerRecentlyPlaced", "condition": {{"conditionType": "OnCharger"}}, "emotionEvent": "PlacedOnCharger"}}]}},
    {{"from": "ObservingOnChargerRecentlyPlaced", "nonInterruptingTransitions": [
      {{"to": "ObservingOnCharger", "condition": {{"customCondition": "NoLongerRecentlyPlaced"}}}}]}},
    {{"from": ["ObservingDriveOffCharger", "Exploring", "ExploringVoiceCommand", "InvestigateHeldCube", "Socializing", "PlayingWithCube"],
     "exitTransitions": [{{"to": "Observing", "condition": {{"conditionType": "TrueCondition"}}}}]}},
    {{"from": "DriveOffChargerIntoSocializing", "exitTransitions": [{{"to": "Socializing", "condition": {{"conditionType": "TrueCondition"}}}}]}},
    {{"from": "*", "interruptingTransitions": [
      {{"to": "InvestigateHeldCube", "condition": {{"conditionType": "UserIsHoldingCube"}}}}]}}
  ],
  "stateTimerConditions": [{{"name": "BoredOfObserving", "begin_s": 1100}}, {{"name": "NoLongerRecentlyPlaced", "begin_s": 150}}],
  "resumeReplacements": {{"ExploringVoiceCommand": "Observing"}},
  "postBehaviorSuggestionResumeOverrides": {{"Socialize": "Socializing", "Nothing": "Observing"}}"#
        ),
    );
    file(
        &mut out,
        "highLevelAI",
        "PutDownBlock",
        r#""behaviorClass": "PutDownBlock""#,
    );
    for s in states {
        let id = format!("{s}Behavior");
        let body = match s {
            "Observing" | "ObservingOnCharger" => format!(
                r#""behaviorClass": "DispatcherStrictPriority", "interruptActiveBehavior": true,
  "behaviors": ["{s}LookAtFaces", "{s}Idle"]"#
            ),
            "Socializing" => {
                r#""behaviorClass": "DispatcherQueue", "behaviors": ["SocializingFindFaces"],
  "postBehaviorSuggestion": "Nothing""#
                    .to_owned()
            }
            "PlayingWithCube" => r#""behaviorClass": "DispatcherRandom",
  "behaviors": [{"behavior": "PlayingRoll", "weight": 1.0, "cooldown_s": 0}]"#
                .to_owned(),
            _ => r#""behaviorClass": "AnimSequence", "animTriggers": ["StateAnim"]"#.to_owned(),
        };
        file(&mut out, "highLevelAI", &id, &body);
    }
    for s in ["Observing", "ObservingOnCharger"] {
        file(
            &mut out,
            "highLevelAI",
            &format!("{s}LookAtFaces"),
            r#""behaviorClass": "ObservingLookAtFaces",
  "wantsToBeActivatedCondition": {"conditionType": "FaceKnown", "maxFaceDist_mm": 1500}"#,
        );
        file(
            &mut out,
            "highLevelAI",
            &format!("{s}Idle"),
            r#""behaviorClass": "Wait""#,
        );
    }
    file(
        &mut out,
        "highLevelAI",
        "SocializingFindFaces",
        r#""behaviorClass": "FindFaces", "searchBehavior": "ObservingIdle", "stoppingCondition": "AnyFace",
  "wantsToBeActivatedCondition": {"conditionType": "TrueCondition"}"#,
    );
    file(
        &mut out,
        "highLevelAI",
        "PlayingRoll",
        r#""behaviorClass": "RollBlock",
  "wantsToBeActivatedCondition": {"conditionType": "ObjectKnown", "objectTypes": ["Block_LIGHTCUBE1"]},
  "anonymousBehaviors": [{"behaviorName": "celebrate", "behaviorClass": "AnimSequence", "animTriggers": ["Yay"]}]"#,
    );
    out
}

/// A chain `depth` deep: `Link0` → `Link1` → ... → `Leaf` (a `Wait`), each link a
/// strict-priority dispatcher with one child (what a new user tries to see whether the cost
/// of a tick grows with the depth of the stack).
pub fn chain(depth: usize) -> String {
    let mut s = String::from("[\n");
    for i in 0..depth {
        let next = if i + 1 == depth {
            "Leaf".to_owned()
        } else {
            format!("Link{}", i + 1)
        };
        let _ = writeln!(
            s,
            "{{\"behaviorID\": \"Link{i}\", \"behaviorClass\": \"DispatcherStrictPriority\", \"interruptActiveBehavior\": false, \"behaviors\": [\"{next}\"]}},"
        );
    }
    s.push_str("{\"behaviorID\": \"Leaf\", \"behaviorClass\": \"Wait\"}\n]\n");
    s
}

/// A runner over `files` (a [`tree`] or [`varied_tree`]), loaded as the original is: every
/// built-in class, stand-ins for the rest, base `InitNormalOperation`. Panics on a load
/// error (the trees load with zero problems).
pub fn runner(files: &[(String, String)]) -> robot_runtime::behavior::Runner<crate::UserIntent> {
    use robot_runtime::behavior::{load_tree, LoadOptions, Runner, Source};
    let sources: Vec<Source<'_>> = files.iter().map(|(n, t)| Source::new(n, t)).collect();
    let tree = load_tree(
        &original_behaviors::registry(),
        &sources,
        "InitNormalOperation",
        &LoadOptions::with_stand_ins(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    Runner::new(
        tree,
        robot_runtime::intent::IntentComponent::new(&crate::MAP),
    )
}
