//! The vocabulary of the class tables: one [`ClassData`] per behavior class of the original
//! engine, with its class-specific JSON keys ([`Key`]), the assignments of its modifier hook
//! ([`Mods`]), the user intents it claims or drops in code and the behavior IDs its code names.
//!
//! Sources: `original-class-predicates.md` (OCP) §2 "Keys" / "Mods", §4.1 / §4.2 and
//! `original-behavior-classes.md` (OBC) §1–§4, §6. The base keys (OBC §1) are not repeated in
//! any class's `keys`: the loader owns them.

/// One class-specific JSON key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    /// The key as it appears in the instance's top-level JSON object.
    pub name: &'static str,
    /// The JSON shape the class reads.
    pub ty: KeyType,
    /// Whether the class requires it, or its default when absent.
    pub need: Need,
    /// What the builder must also check or know: the resolution of behavior names (`A` =
    /// the owner's anonymous behaviors first, then global IDs; `G` = global IDs only; OBC §6),
    /// the class a named behavior must have, value constraints, the exact shape of nested
    /// objects and arrays, and deviations from the spec's wording that this table decided.
    pub note: &'static str,
}

/// Whether a key must be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Read with a required-value helper: missing is an error (the original dev-asserts;
    /// in release a missing value reads as the JSON null conversion).
    Required,
    /// Optional; the text is the value used when the key is absent, as the spec gives it
    /// (`"true"`, `"60"`, `"VC_ListeningLoop"`, `"[]"`). `"none"` means "not configured": the
    /// class treats the feature the key controls as absent (no animation, no delegate, no
    /// limit), and the spec gives no other default.
    Optional(&'static str),
}

/// The JSON shape of a key's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyType {
    /// `true` / `false`.
    Bool,
    /// A signed integer (the spec's int / int8).
    Int,
    /// An unsigned integer (the spec's uint / uint8 / "unsigned int"): negative is an error.
    UInt,
    /// A number (integers are accepted).
    Float,
    /// A free string.
    Str,
    /// An animation trigger name (an animation group: one member is picked per play).
    Trigger,
    /// An audio event name.
    AudioEvent,
    /// One behavior ID (resolution in the key's note).
    Id,
    /// An array of behavior IDs.
    Ids,
    /// An array whose element shape the note describes.
    Array,
    /// An object whose shape the note describes.
    Object,
    /// One condition object (a factory condition or `customCondition`, OBC §5.0).
    Condition,
    /// An array of user-intent matchers, the format of the base key `respondToUserIntents`
    /// (OBC §5.3: `{type}`, `{type, …all data fields}` or `{type, _lambda}`).
    IntentMatchers,
    /// A piecewise-linear graph in the engine's graph-evaluator format:
    /// `{"nodes": [{"x": …, "y": …}, …]}`, x increasing, clamped at both ends (the shape
    /// OBC §2.7 gives for DispatcherScoring's penalties and the fork's files use for
    /// `small_motion_period_s` and `distMM_speedMM_Graph`; not `[[x, y], …]`).
    Graph,
    /// A localization key (a string naming a localized text).
    LocaleKey,
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// `faceSelectionPenalties` (OCP §2.9): the ARRAY of `{factor, multiplier}` the robot's
    /// files use, each `factor` one of [`FACE_SELECTION_FACTORS`] and each `multiplier` a
    /// number. The object form `{"<factor>": <multiplier>, ...}` is also accepted (this
    /// project's shorthand, same factors and numbers; the original reads only the array).
    FacePenalties,
    /// Any JSON value (the class reads it in a way the spec does not pin down).
    Any,
}

impl KeyType {
    /// A value of this type, as a class reads it (for tools and tests that build an instance
    /// giving every key): `behavior` for a behavior ID, the first name of an enum, an empty
    /// array or object where the note describes the elements, an always-true condition.
    pub fn sample(self, behavior: &str) -> serde_json::Value {
        use serde_json::json;
        match self {
            KeyType::Bool => json!(true),
            KeyType::Int | KeyType::UInt => json!(2),
            KeyType::Float => json!(1.5),
            KeyType::Str | KeyType::Trigger | KeyType::AudioEvent | KeyType::LocaleKey => {
                json!("Some")
            }
            KeyType::Id => json!(behavior),
            KeyType::Ids => json!([behavior]),
            KeyType::Array => json!([]),
            KeyType::Object => json!({}),
            KeyType::Graph => json!({"nodes": [{"x": 0, "y": 1}, {"x": 10, "y": 2}]}),
            KeyType::Condition => json!({"conditionType": "TrueCondition"}),
            KeyType::IntentMatchers => json!([]),
            KeyType::Enum(names) => json!(names.first().copied().unwrap_or_default()),
            KeyType::FacePenalties => json!([{"factor": "UnnamedFace", "multiplier": 2}]),
            KeyType::Any => json!(1),
        }
    }

    /// A value of another type, which a class refuses (None: any value fits).
    pub fn wrong(self) -> Option<serde_json::Value> {
        match self {
            KeyType::Any => None,
            KeyType::Str
            | KeyType::Trigger
            | KeyType::AudioEvent
            | KeyType::LocaleKey
            | KeyType::Id
            | KeyType::Enum(_) => Some(serde_json::json!(5)),
            _ => Some(serde_json::json!("wrong")),
        }
    }
}

/// The fields the class's modifier hook assigns (OBC §1 "Precedence of modifiers"): the hook
/// runs after the JSON `behaviorModifiers` are applied and overwrites the fields it assigns.
/// `None`: the hook does not assign the field, so the JSON value (or the base default:
/// carry false, off treads false, charger true, always delegates true) stays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Mods {
    /// `wantsToBeActivatedWhenCarryingObject`.
    pub carry: Option<bool>,
    /// `wantsToBeActivatedWhenOffTreads`.
    pub off_treads: Option<bool>,
    /// `wantsToBeActivatedWhenOnCharger`.
    pub charger: Option<bool>,
    /// `behaviorAlwaysDelegates`.
    pub always_delegates: Option<bool>,
}

impl Mods {
    /// A hook that assigns nothing (OCP "Mods: base").
    pub const BASE: Mods = Mods {
        carry: None,
        off_treads: None,
        charger: None,
        always_delegates: None,
    };

    /// The hook assigns `wantsToBeActivatedWhenCarryingObject` (OCP "+carry" / "−carry").
    pub const fn carry(self, value: bool) -> Mods {
        Mods {
            carry: Some(value),
            ..self
        }
    }

    /// The hook assigns `wantsToBeActivatedWhenOffTreads` ("+offTreads" / "−offTreads").
    pub const fn off_treads(self, value: bool) -> Mods {
        Mods {
            off_treads: Some(value),
            ..self
        }
    }

    /// The hook assigns `wantsToBeActivatedWhenOnCharger` ("+charger" / "−charger").
    pub const fn charger(self, value: bool) -> Mods {
        Mods {
            charger: Some(value),
            ..self
        }
    }

    /// The hook assigns `behaviorAlwaysDelegates` ("AD on" / "−AD").
    pub const fn always_delegates(self, value: bool) -> Mods {
        Mods {
            always_delegates: Some(value),
            ..self
        }
    }
}

/// One behavior class of the original engine, as data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassData {
    /// The class name (`behaviorClass`).
    pub name: &'static str,
    /// Class-specific keys only (not the 18 base keys of OBC §1, nor `behaviorName` /
    /// `debugLabel`).
    pub keys: &'static [Key],
    /// The class hook's assignments (OCP "Mods"; OBC §1 table).
    pub mods: Mods,
    /// User intents claimed in code (OCP §4.1), in the order the class tries them.
    pub claims: &'static [&'static str],
    /// User intents dropped in code (OCP §4.2).
    pub drops: &'static [&'static str],
    /// Behavior IDs named in the class's code (OCP "Hard-coded …", OBC §6): they must exist
    /// in any tree that uses the class.
    pub hard_coded: &'static [&'static str],
    /// One line: what it does and how it ends (OCP "Does" / "Ends").
    pub summary: &'static str,
}

/// A required key.
pub const fn req(name: &'static str, ty: KeyType, note: &'static str) -> Key {
    Key {
        name,
        ty,
        need: Need::Required,
        note,
    }
}

/// An optional key with its default (as text; `"none"` = not configured).
pub const fn opt(
    name: &'static str,
    ty: KeyType,
    default: &'static str,
    note: &'static str,
) -> Key {
    Key {
        name,
        ty,
        need: Need::Optional(default),
        note,
    }
}

/// The shape of `faceSelectionPenalties` (OCP §2.9; AnimSequenceWithFace, TrackFace,
/// EnrollFace, ReactToBody).
pub const FACE_SELECTION_PENALTIES_NOTE: &str = "an ARRAY of {factor: string, one of RelativeBodyAngleRadians, RelativeHeadAngleRadians, RelativeMicDirectionRadians, UnnamedFace, TrackingOnly, TimeSinceSeen_s, NotMakingEyeContact, Distance_m; multiplier: number}; one entry with a non-string factor or a non-numeric multiplier fails the whole array (the original verifies and keeps the default); best face = lowest sum of score x multiplier (OCP §2.9)";

/// The factor names of `faceSelectionPenalties` (`FaceSelectionPenaltyMultiplier`).
pub const FACE_SELECTION_FACTORS: &[&str] = &[
    "RelativeBodyAngleRadians",
    "RelativeHeadAngleRadians",
    "RelativeMicDirectionRadians",
    "UnnamedFace",
    "TrackingOnly",
    "TimeSinceSeen_s",
    "NotMakingEyeContact",
    "Distance_m",
];

/// The default of `faceSelectionPenalties`, as JSON text (OCP §2.9).
pub const FACE_SELECTION_PENALTIES_DEFAULT: &str = r#"[{"factor":"Distance_m","multiplier":4},{"factor":"RelativeBodyAngleRadians","multiplier":3},{"factor":"RelativeHeadAngleRadians","multiplier":0.1},{"factor":"TimeSinceSeen_s","multiplier":10},{"factor":"TrackingOnly","multiplier":100},{"factor":"NotMakingEyeContact","multiplier":1}]"#;

/// The shape of a `recentOccurrence` object (ReactToVoiceCommand's error trackers,
/// AttentionTransferIfNeeded).
pub const RECENT_OCCURRENCE_NOTE: &str = "{numberOfTimes: int (default 1), amountOfSeconds: float (default infinity)}: the threshold is met when the event happened numberOfTimes times within amountOfSeconds";
