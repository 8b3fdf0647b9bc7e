//! The generic classes of OBC: Wait, the dispatchers (§2), the HighLevelAI / PRDemo state
//! machine (§3) and the animation and timing wrappers (§4).
//!
//! Modifiers: OBC §1's table gives every field's value for Wait, the animation wrappers,
//! MoveHeadToAngle, DispatcherRerun, HighLevelAI and PRDemo; all four are taken as assigned
//! by the hook. The `IBehaviorDispatcher` subclasses set the three `wantsToBeActivatedWhen*`
//! flags to the OR over their children's class hooks, and PassThrough copies its delegate's
//! hook: those fields are computed by the builder, so they are `None` here.

use super::types::KeyType::*;
use super::types::{
    opt, req, ClassData, Key, Mods, FACE_SELECTION_PENALTIES_DEFAULT, FACE_SELECTION_PENALTIES_NOTE,
};

/// `interruptActiveBehavior` where it is required (StrictPriority, WithCooldown, Scoring).
const INTERRUPT_REQUIRED: Key = req(
    "interruptActiveBehavior",
    Bool,
    "required (dev-assert); true: a higher-priority child that wants to run replaces the running one",
);

/// `interruptActiveBehavior` where the class forces it false (Queue, Random).
const INTERRUPT_FORCED_FALSE: Key = opt(
    "interruptActiveBehavior",
    Bool,
    "false",
    "forced false: accept false; true is a verify warning and is ignored",
);

/// `requireGentleInterruption` (StrictPriority, WithCooldown, Scoring).
const GENTLE: Key = opt(
    "requireGentleInterruption",
    Bool,
    "false",
    "not in the class's expected-key list (a dev build reports it as unexpected) but read; true while interruptActiveBehavior is false is an error log",
);

/// `linkScope` (StrictPriority, WithCooldown).
const LINK_SCOPE: Key = opt(
    "linkScope",
    Bool,
    "false",
    "true: the predicate becomes \"some child wants to be activated\" and the children are in linked scope",
);

/// The state machine's common keys (OBC §3.1), shared by HighLevelAI and PRDemo.
const STATES: Key = req(
    "states",
    Array,
    "need not stated in OBC, required here (a machine without states cannot run); array of state objects, not key-checked: name (req), exactly one of behavior (behavior ID, G: global IDs only) / cancelSelf (bool), getInBehavior (G), activateIntent (intent tag), resetBehaviorTimer (BehaviorTimer name), ensureMinStimValue (float, default -1 = off), debugColor (string, default BLACK); duplicate names are a verify error",
);
const INITIAL_STATE: Key = req(
    "initialState",
    Str,
    "a state name; unknown is a verify error",
);
const TRANSITION_DEFINITIONS: Key = opt(
    "transitionDefinitions",
    Array,
    "[]",
    "array of {from: state name | \"*\" | non-empty array of names, interruptingTransitions, nonInterruptingTransitions, exitTransitions: arrays of {to: state name, condition: condition object, emotionEvent: string (optional)}}",
);
const RESUME_REPLACEMENTS: Key = opt(
    "resumeReplacements",
    Object,
    "{}",
    "state name -> state name, applied when resuming",
);
const STATE_TIMER_CONDITIONS: Key = opt(
    "stateTimerConditions",
    Array,
    "[]",
    "array of {name: string (req), begin_s: float (req)}: injected custom conditions, true once the CURRENT state's time >= begin_s",
);
const IGNORE_MISSING_TRANSITIONS: Key = opt(
    "ignoreMissingTransitions",
    Bool,
    "false",
    "only silences the no-incoming-transition warning",
);
const EMOTION_EVENT: Key = opt("emotionEvent", Any, "none", "accepted at top level, unused");
const USE_DEBUG_LIGHTS: Key = opt(
    "use_debug_lights",
    Bool,
    "false",
    "read but not in the expected-key list (a dev build reports it as unexpected); default not stated in OBC",
);

/// The AnimSequence keys (OBC §4.1), shared by the WithFace / WithObject subclasses.
const ANIM_TRIGGERS: Key = opt(
    "animTriggers",
    Array,
    "[]",
    "array of animation triggers; exactly one of animTriggers / animNames must be non-empty (dev-assert)",
);
const ANIM_NAMES: Key = opt(
    "animNames",
    Array,
    "[]",
    "array of animation names; exactly one of animTriggers / animNames must be non-empty",
);
const NUM_LOOPS: Key = opt(
    "num_loops",
    Int,
    "1",
    "0 = forever; with several animations: passes",
);
const TRACKS_TO_LOCK: Key = opt(
    "tracksToLock",
    Array,
    "[]",
    "array of AnimTrackFlag names locked by the animations",
);
const RENDER_IN_EYE_HUE: Key = opt("renderInEyeHue", Bool, "true", "");

/// Modifiers "all three gates true".
const EVERYWHERE: Mods = Mods::BASE.carry(true).off_treads(true).charger(true);

/// The generic classes.
pub const CLASSES: &[ClassData] = &[
    ClassData {
        name: "Wait",
        keys: &[],
        mods: EVERYWHERE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Does nothing; gentle interruption always allowed. Never ends by itself (instances end it with wantsToCancelSelfCondition; the project's duration_s is an extension, not an original key).",
    },
    ClassData {
        name: "DispatcherStrictPriority",
        keys: &[
            req(
                "behaviors",
                Ids,
                "required (dev-assert); A (own anonymous first, then global); unresolved children are dropped",
            ),
            INTERRUPT_REQUIRED,
            LINK_SCOPE,
            opt(
                "actAsSelector",
                Bool,
                "false",
                "true: the first pick of an activation is final",
            ),
            GENTLE,
        ],
        mods: Mods::BASE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Runs the first child (in list order) that is active or wants to run; in interrupt mode an earlier wanting child replaces the running one. Gates = OR over the children's class hooks (builder). Ends AD-end when nothing is delegated.",
    },
    ClassData {
        name: "DispatcherStrictPriorityWithCooldown",
        keys: &[
            req(
                "behaviors",
                Array,
                "required (dev-assert); array of {behavior: behavior ID, A (req), cooldown_s: float (required; < 0 = forever), cooldown_random_factor: float (default 0), ignoreFastForward: bool (default false), linkedBehaviorTimer: BehaviorTimer name (optional), resetLinkedTimerOnDispatcherActivation: bool (default false; read only with linkedBehaviorTimer)}",
            ),
            INTERRUPT_REQUIRED,
            LINK_SCOPE,
            opt(
                "resetCooldownOnDeactivation",
                Bool,
                "false",
                "true: deactivation resets every cooldown instead of starting the running child's",
            ),
            GENTLE,
        ],
        mods: Mods::BASE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Strict priority over the children that are off cooldown; a child's cooldown starts when it stops (not when interrupted). Gates = OR over the children's class hooks (builder). Ends AD-end.",
    },
    ClassData {
        name: "DispatcherRandom",
        keys: &[
            req(
                "behaviors",
                Array,
                "required; array of {behavior: behavior ID, A (req), weight: float (required, dev-assert), cooldown_s: float (required; < 0 = forever), cooldown_random_factor: float (default 0), ignoreFastForward: bool (default false)}; no linked timers",
            ),
            INTERRUPT_FORCED_FALSE,
        ],
        mods: Mods::BASE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Exactly one child per activation, picked by weight among the off-cooldown wanting children (fallback: the smallest remaining cooldown); its cooldown starts when it ends. Gates = OR over the children's class hooks (builder). Ends after that child.",
    },
    ClassData {
        name: "DispatcherQueue",
        keys: &[
            req(
                "behaviors",
                Ids,
                "required; A (own anonymous first, then global)",
            ),
            INTERRUPT_FORCED_FALSE,
        ],
        mods: Mods::BASE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Runs the children in order, skipping those that do not want to run, never interrupting. Gates = OR over the children's class hooks (builder). Ends after the last child.",
    },
    ClassData {
        name: "DispatcherPassThrough",
        keys: &[req(
            "delegateID",
            Id,
            "required; G (global IDs only); not an IBehaviorDispatcher: interruptActiveBehavior is not a key",
        )],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Wants what its delegate wants (full test; the delegate is in linked scope) and delegates it. Modifiers copied from the delegate's class hook (builder). Ends with its delegate plus at most one tick; never gently interruptible.",
    },
    ClassData {
        name: "DispatcherRerun",
        keys: &[
            req("delegateID", Id, "required; G (global IDs only)"),
            req("numRuns", Int, "int8; any negative = forever, 0 ends at once"),
            opt(
                "presetConditions",
                Bool,
                "false",
                "dev only: force the delegate's requirements when it does not want to run",
            ),
            opt("behaviors", Any, "none", "accepted, never read"),
        ],
        mods: EVERYWHERE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Created from code (no tree instances). Delegates its delegate numRuns times, waiting while it does not want to run. Ends self-cancel when the runs are used up.",
    },
    ClassData {
        name: "DispatcherScoring",
        keys: &[
            req(
                "behaviors",
                Array,
                "array of {behaviorID: behavior ID, G (global IDs only; anonymous not supported), scoring: {flatScore: float (default 0) | emotionScorers (format not specified, mutually exclusive with flatScore), repetitionPenalty, activatedPenalty: graphs {nodes: [{x, y}, ...]} (default constant 1)}}",
            ),
            INTERRUPT_REQUIRED,
            GENTLE,
        ],
        mods: Mods::BASE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Unused in the tree. Runs the active-or-wanting child with the highest penalized score (> 0, ties to the earlier child). Gates = OR over the children's class hooks (builder). Ends AD-end.",
    },
    ClassData {
        name: "HighLevelAI",
        keys: &[
            STATES,
            INITIAL_STATE,
            TRANSITION_DEFINITIONS,
            RESUME_REPLACEMENTS,
            STATE_TIMER_CONDITIONS,
            IGNORE_MISSING_TRANSITIONS,
            EMOTION_EVENT,
            USE_DEBUG_LIGHTS,
            req("socializeKnownFaceCooldown_s", Float, "required (dev-assert); feeds CloseFaceForSocializing"),
            req("playWithCubeCooldown_s", Float, "required (dev-assert); feeds WantsToLeaveChargerForPlay and CloseCubeForPlaying"),
            req(
                "playWithCubeOnChargerCooldown_s",
                Float,
                "required (dev-assert); feeds WantsToLeaveChargerForPlay",
            ),
            req(
                "maxFaceDistanceToSocialize_mm",
                Float,
                "required (dev-assert); feeds CloseFaceForSocializing",
            ),
            opt(
                "postBehaviorSuggestionResumeOverrides",
                Object,
                "{}",
                "PostBehaviorSuggestion name -> state name; an invalid suggestion, Invalid or an unknown state is a verify error and the entry is skipped",
            ),
        ],
        mods: EVERYWHERE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["PutDownBlock"],
        summary: "The state machine: interrupting / non-interrupting / exit transitions per state, get-ins, PutDownBlock pre-step, resume with replacements and the suggestion override; injects CloseFaceForSocializing, ChargerLocated, WantsToLeaveChargerForPlay, CloseCubeForPlaying, ExploringCooldownMet. Ends only through a cancelSelf state or its parent.",
    },
    ClassData {
        name: "PRDemo",
        keys: &[
            STATES,
            INITIAL_STATE,
            TRANSITION_DEFINITIONS,
            RESUME_REPLACEMENTS,
            STATE_TIMER_CONDITIONS,
            IGNORE_MISSING_TRANSITIONS,
            EMOTION_EVENT,
            USE_DEBUG_LIGHTS,
        ],
        mods: EVERYWHERE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &["PutDownBlock"],
        summary: "The OBC state machine plus PRDemoBase's resume override. Ends only through a cancelSelf state or its parent.",
    },
    ClassData {
        name: "AnimSequence",
        keys: &[
            ANIM_TRIGGERS,
            ANIM_NAMES,
            NUM_LOOPS,
            TRACKS_TO_LOCK,
            RENDER_IN_EYE_HUE,
        ],
        mods: EVERYWHERE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Has animations: plays them in order (a trigger reselected per play), num_loops passes (0 = forever). Ends self-cancel after the last pass.",
    },
    ClassData {
        name: "AnimSequenceWithFace",
        keys: &[
            ANIM_TRIGGERS,
            ANIM_NAMES,
            NUM_LOOPS,
            TRACKS_TO_LOCK,
            RENDER_IN_EYE_HUE,
            opt(
                "faceSelectionPenalties",
                FacePenalties,
                FACE_SELECTION_PENALTIES_DEFAULT,
                FACE_SELECTION_PENALTIES_NOTE,
            ),
            opt(
                "requireFaceForActivation",
                Bool,
                "false",
                "true: the predicate needs a best face",
            ),
            opt("requireFaceConfirmation", Bool, "false", ""),
            opt(
                "returnToOriginalPose",
                Bool,
                "false",
                "true: turns back to the recorded heading after the sequence",
            ),
            opt(
                "setFastTurn",
                Bool,
                "false",
                "fast point turn: 4 rad/s, accel 20, decel 40",
            ),
        ],
        mods: EVERYWHERE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Turns toward the best face (if any), plays the sequence, optionally turns back. Ends after the sequence.",
    },
    ClassData {
        name: "AnimSequenceWithObject",
        keys: &[
            ANIM_TRIGGERS,
            ANIM_NAMES,
            NUM_LOOPS,
            TRACKS_TO_LOCK,
            RENDER_IN_EYE_HUE,
            opt(
                "objectType",
                Str,
                "any",
                "an ObjectType name; absent = any type; the predicate is \"a located object of that type exists\"",
            ),
        ],
        mods: EVERYWHERE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A located object of objectType exists: turns toward the closest one, then plays the sequence. Ends after the sequence.",
    },
    ClassData {
        name: "AnimGetInLoop",
        keys: &[
            req("getIn", Trigger, ""),
            req("loopAnimation", Trigger, ""),
            req("getOut", Trigger, ""),
            opt(
                "emergencyGetOut",
                Trigger,
                "none",
                "played outside the behavior system when deactivated during the get-in or loop",
            ),
            opt("loopEndCondition", Condition, "none", "latched end request"),
            opt(
                "shouldCheckEndCondDuringAnim",
                Bool,
                "true",
                "false: the end condition is NEVER evaluated (OBC §4.2 item 3)",
            ),
            opt("loopInterval_s", Float, "0", "minimum time between loop starts"),
            opt("lockTreads", Bool, "false", "locks the body track"),
            opt("shouldForceLoopGetOutAnim", Any, "none", "accepted, ignored"),
        ],
        mods: Mods::BASE
            .carry(false)
            .off_treads(true)
            .charger(true)
            .always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Get-in, then the loop every loopInterval_s until the end condition latches, then the get-out. Ends self-cancel when the get-out completes.",
    },
    ClassData {
        name: "TextToSpeechLoop",
        keys: &[
            req("loopAnimation", Trigger, ""),
            opt("getInAnimation", Trigger, "none", ""),
            opt("getOutAnimation", Trigger, "none", ""),
            opt("emergencyGetOutAnimation", Trigger, "none", "played on an invalid utterance"),
            opt("idleAnimation", Trigger, "none", "idles while the speech is generated"),
            opt("lockTreads", Bool, "false", ""),
            opt("DEV_TEST_UTTERANCE", Str, "none", "a dev test text; makes the predicate true"),
        ],
        mods: Mods::BASE
            .carry(false)
            .off_treads(true)
            .charger(true)
            .always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "An utterance set by the owner (or a dev text): optional idle until ready, get-in, speaks with the loop animation until done, get-out. Ends after the get-out.",
    },
    ClassData {
        name: "MoveHeadToAngle",
        keys: &[req("headAngle_deg", Float, "")],
        mods: EVERYWHERE.always_delegates(true),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Moves the head to headAngle_deg once. Ends AD-end.",
    },
    ClassData {
        name: "Turn",
        keys: &[
            req("shouldTurnClockwise", Bool, "clockwise turns by -turnDegrees"),
            req("turnDegrees", Float, ""),
        ],
        mods: Mods::BASE,
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "A relative point turn by -turnDegrees (clockwise) or +turnDegrees. Ends AD-end.",
    },
];
