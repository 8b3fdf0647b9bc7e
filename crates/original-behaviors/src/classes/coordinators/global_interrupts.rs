//! `CoordinateGlobalInterrupts`: its suppression rules (OCP §2.4), and what it tells classes
//! of other families (pure functions of the stack and the intents they ask themselves).

use robot_runtime::behavior::{Behavior, BehaviorId, BuildCx, IntentUnion, View};
use serde_json::Value;

use super::pass_through::{coordinator, Kind, Rule, When};
use super::{class_on_stack, names_on_stack, resolve_ids};
use crate::access::RobotAccess;

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

/// Whom a rule watches on the stack: behaviors by ID, or by class.
enum Watched {
    Ids(&'static [&'static str]),
    Classes(&'static [&'static str]),
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
