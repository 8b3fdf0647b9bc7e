//! The ROS4HRI vocabulary: intent constants, sources, modalities, thematic roles and gaze
//! modes, each with its canonical (2.x) wire spelling and the legacy spellings read leniently.

use std::fmt;

/// Which spelling correction a lenient read applied. Every correction is reported (in
/// [`crate::hri::HriEvent::Normalized`]) so that an outdated peer can be found and fixed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Normalization {
    /// The value was wrapped in double quotes, as 0.3.x peers send constants (the quotes of a
    /// ROS 1 string constant are part of its value).
    QuotedConstant {
        /// Which field (`intent`, `source`, `modality`).
        field: &'static str,
    },
    /// The intent arrived in the 0.3.0 field `action` instead of `intent`.
    LegacyActionField,
    /// A 0.3.x modality spelling (`speech`) was read as its 2.x constant
    /// (`__modality_speech__`).
    LegacyModality {
        /// The value as received (quotes removed).
        received: String,
    },
    /// A known misspelling of an intent constant (e.g. the tutorial's `__start_activity__`).
    IntentAlias {
        /// The value as received.
        received: String,
    },
    /// A source value the docs use but that is not a constant (`UNKNOWN_USER`), read as
    /// [`Source::UnknownAgent`]. (An empty source is no alias: it is a source not given, read
    /// as [`Source::Unknown`] without a note.)
    SourceAlias {
        /// The value as received.
        received: String,
    },
    /// `data` was empty and read as the empty object, as every consumer does.
    EmptyData,
    /// `data` arrived as a JSON object instead of a string holding one (JSON bridges).
    InlineData,
    /// `priority` was absent: the documented default 128 was used, not the wire default 0.
    DefaultPriority,
}

/// Strips one pair of surrounding double quotes (0.3.x constants) and reports it.
#[inline]
pub(crate) fn unquote<'a>(
    value: &'a str,
    field: &'static str,
    notes: &mut Vec<Normalization>,
) -> &'a str {
    // The common case first, inline: a value that starts with a printable ASCII character
    // other than a quote and ends with a printable ASCII character has nothing to trim or
    // strip (every character `trim` removes, ASCII or not, is no printable ASCII byte).
    if let (Some(&first), Some(&last)) = (value.as_bytes().first(), value.as_bytes().last()) {
        if first.is_ascii_graphic() && first != b'"' && last.is_ascii_graphic() {
            return value;
        }
    }
    unquote_blanks(value, field, notes)
}

/// [`unquote`] of a value that may have blanks or quotes around it (or is empty).
fn unquote_blanks<'a>(
    value: &'a str,
    field: &'static str,
    notes: &mut Vec<Normalization>,
) -> &'a str {
    let trimmed = value.trim();
    if trimmed.len() >= 2 && trimmed.starts_with('"') && trimmed.ends_with('"') {
        notes.push(Normalization::QuotedConstant { field });
        // Trimmed inside the quotes too: `"\t"` is as empty as `\t`, so a value reads the
        // same whether it came quoted or not (and reads back the same once written).
        trimmed[1..trimmed.len() - 1].trim()
    } else {
        trimmed
    }
}

macro_rules! intents {
    ($( $(#[$doc:meta])* $variant:ident => $wire:literal, $konst:literal; )*) => {
        /// An intent: one of the constants of any released `hri_actions_msgs` version or
        /// fork, or a custom string (kept, never rejected, as the spec allows).
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum IntentKind {
            $( $(#[$doc])* $variant, )*
            /// A custom intent string (not one of the constants), kept verbatim.
            Custom(String),
        }

        impl IntentKind {
            /// Every standard intent, in the table order of the spec.
            pub const STANDARD: &'static [IntentKind] = &[$(IntentKind::$variant),*];

            /// The canonical (2.x) wire value, e.g. `__intent_move_to__`; a custom intent's
            /// own string.
            pub fn wire(&self) -> &str {
                match self {
                    $( IntentKind::$variant => $wire, )*
                    IntentKind::Custom(s) => s,
                }
            }

            /// The intent's wire value, borrowed for the standard intents (a custom
            /// intent's is copied).
            pub fn wire_cow(&self) -> ::std::borrow::Cow<'static, str> {
                match self {
                    $( IntentKind::$variant => ::std::borrow::Cow::Borrowed($wire), )*
                    IntentKind::Custom(s) => ::std::borrow::Cow::Owned(s.clone()),
                }
            }

            /// The standard intent's position in [`IntentKind::STANDARD`], or `None` for a
            /// custom intent.
            pub(crate) fn standard_index(&self) -> Option<u8> {
                /// The standard intents in table order, numbered from 0.
                enum Index { $( $variant, )* }
                match self {
                    $( IntentKind::$variant => Some(Index::$variant as u8), )*
                    IntentKind::Custom(_) => None,
                }
            }

            /// The constant's name in the message definition (`MOVE_TO`), or `None` for a
            /// custom intent.
            pub fn constant_name(&self) -> Option<&'static str> {
                match self {
                    $( IntentKind::$variant => Some($konst), )*
                    IntentKind::Custom(_) => None,
                }
            }

            /// The standard intent with this exact canonical wire value.
            pub fn from_wire_exact(value: &str) -> Option<IntentKind> {
                match value {
                    $( $wire => Some(IntentKind::$variant), )*
                    _ => None,
                }
            }

            /// The standard intent with this constant name (`MOVE_TO`).
            pub fn from_constant_name(name: &str) -> Option<IntentKind> {
                match name {
                    $( $konst => Some(IntentKind::$variant), )*
                    _ => None,
                }
            }
        }
    };
}

intents! {
    /// `RAW_USER_INPUT`: no intent could be extracted; the raw input is forwarded.
    RawUserInput => "__raw_user_input__", "RAW_USER_INPUT";
    /// `ENGAGE_WITH`: an agent wants to engage with another.
    EngageWith => "__intent_engage_with__", "ENGAGE_WITH";
    /// `MOVE_TO`: navigate to a location.
    MoveTo => "__intent_move_to__", "MOVE_TO";
    /// `GUIDE`: guide someone somewhere.
    Guide => "__intent_guide__", "GUIDE";
    /// `GRAB_OBJECT`: pick up an object.
    GrabObject => "__intent_grab_object__", "GRAB_OBJECT";
    /// `BRING_OBJECT`: bring an object to a place or person.
    BringObject => "__intent_bring_object__", "BRING_OBJECT";
    /// `PLACE_OBJECT`: put an object on a support (the `recipient`).
    PlaceObject => "__intent_place_object__", "PLACE_OBJECT";
    /// `GREET`: greet an agent.
    Greet => "__intent_greet__", "GREET";
    /// `SAY`: say a text.
    Say => "__intent_say__", "SAY";
    /// `GAZE`: manage the gaze mode (Eurecat and 4i-ai forks).
    Gaze => "__intent_gaze__", "GAZE";
    /// `PRESENT_CONTENT`: present predefined content.
    PresentContent => "__intent_present_content__", "PRESENT_CONTENT";
    /// `PERFORM_MOTION`: perform a motion or gesture.
    PerformMotion => "__intent_perform_motion__", "PERFORM_MOTION";
    /// `START_ACTIVITY`: start a scripted activity.
    StartActivity => "__intent_start_activity__", "START_ACTIVITY";
    /// `STOP_ACTIVITY`: stop an activity (released message).
    StopActivity => "__intent_stop_activity__", "STOP_ACTIVITY";
    /// `CANCEL_ACTIVITY`: cancel an activity (docs page and forks).
    CancelActivity => "__intent_cancel_activity__", "CANCEL_ACTIVITY";
    /// `CONTINUE_ACTIVITY`: resume a stopped activity (forks).
    ContinueActivity => "__intent_continue_activity__", "CONTINUE_ACTIVITY";
    /// `WAKEUP`: re-activate the system (2.1.0).
    Wakeup => "__intent_wakeup__", "WAKEUP";
    /// `SUSPEND`: suspend the system (2.1.0).
    Suspend => "__intent_suspend__", "SUSPEND";
}

/// Misspellings of intent constants seen in public material, read as the real constant.
const INTENT_ALIASES: &[(&str, IntentKind)] = &[
    // The zero-to-LLM tutorial asks the chatbot for this spelling.
    ("__start_activity__", IntentKind::StartActivity),
];

impl IntentKind {
    /// Reads an intent value leniently: 0.3.x quotes are removed, known misspellings are
    /// corrected (both reported in `notes`); anything else that is not a constant is a
    /// [`IntentKind::Custom`] intent. Never fails; an empty value is rejected by the message
    /// reader, not here.
    pub fn read(value: &str, notes: &mut Vec<Normalization>) -> IntentKind {
        let v = unquote(value, "intent", notes);
        if let Some(kind) = IntentKind::from_wire_exact(v) {
            return kind;
        }
        if let Some((_, kind)) = INTENT_ALIASES.iter().find(|(alias, _)| *alias == v) {
            notes.push(Normalization::IntentAlias {
                received: v.to_owned(),
            });
            return kind.clone();
        }
        IntentKind::Custom(v.to_owned())
    }

    /// True for a standard (non-custom) intent.
    pub fn is_standard(&self) -> bool {
        !matches!(self, IntentKind::Custom(_))
    }
}

impl fmt::Display for IntentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.constant_name() {
            Some(name) => f.write_str(name),
            None => write!(f, "custom intent {:?}", self.wire()),
        }
    }
}

/// Who expressed an intent (not which node published it).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// `__myself__`: the robot itself.
    Myself,
    /// `__remote_supervisor__`: a remote supervisor.
    RemoteSupervisor,
    /// `__unknown_agent__`: someone interacting but not identified.
    UnknownAgent,
    /// `__unknown__`: unknown.
    Unknown,
    /// A person or agent id (a REP-155 person id in compliant systems).
    Person(String),
}

impl Source {
    /// The canonical wire value.
    pub fn wire(&self) -> &str {
        match self {
            Source::Myself => "__myself__",
            Source::RemoteSupervisor => "__remote_supervisor__",
            Source::UnknownAgent => "__unknown_agent__",
            Source::Unknown => "__unknown__",
            Source::Person(id) => id,
        }
    }

    /// Reads a source leniently: quotes removed; the docs' undefined `UNKNOWN_USER` (and its
    /// misspelling `UNKONOWN_USER`) read as [`Source::UnknownAgent`]; every correction is
    /// reported in `notes`. An empty value (blank, or `""` quoted) is a source not given: it
    /// reads as [`Source::Unknown`] without a note, as a JSON message without `source` does
    /// (a ROS 2 string field left unset is empty: not a spelling to correct).
    pub fn read(value: &str, notes: &mut Vec<Normalization>) -> Source {
        if value.is_empty() {
            // A transport's unset field: not given, and nothing to unquote.
            return Source::Unknown;
        }
        let v = unquote(value, "source", notes);
        match v {
            "__myself__" => Source::Myself,
            "__remote_supervisor__" => Source::RemoteSupervisor,
            "__unknown_agent__" => Source::UnknownAgent,
            "__unknown__" => Source::Unknown,
            "UNKNOWN_USER" | "UNKONOWN_USER" | "__unknown_user__" => {
                notes.push(Normalization::SourceAlias {
                    received: v.to_owned(),
                });
                Source::UnknownAgent
            }
            "" => Source::Unknown,
            id => Source::Person(id.to_owned()),
        }
    }
}

/// How an intent was expressed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Modality {
    /// `__modality_speech__`.
    Speech,
    /// `__modality_motion__`: gestures and displacement (e.g. approaching).
    Motion,
    /// `__modality_touchscreen__`.
    Touchscreen,
    /// `__modality_other__`.
    Other,
    /// `__modality_internal__`: robot-internal (e.g. battery low).
    Internal,
    /// A value that is none of the constants (the spec says it MUST be one): kept verbatim so
    /// nothing is lost; the intake reports it ([`crate::hri::HriError::UnknownModality`]) and
    /// rejects it only when configured to.
    Unrecognized(String),
}

impl Modality {
    /// The canonical wire value (an unrecognized value as received).
    pub fn wire(&self) -> &str {
        match self {
            Modality::Speech => "__modality_speech__",
            Modality::Motion => "__modality_motion__",
            Modality::Touchscreen => "__modality_touchscreen__",
            Modality::Other => "__modality_other__",
            Modality::Internal => "__modality_internal__",
            Modality::Unrecognized(s) => s,
        }
    }

    /// Reads a modality leniently: quotes removed, the 0.3.x spellings (`speech`, ...) read
    /// as their 2.x constants (reported in `notes`); an empty value (blank, or `""` quoted)
    /// is a modality not given and reads as [`Modality::Other`] without a word, as a JSON
    /// message without `modality` does (a ROS 2 string field left unset is empty); anything
    /// else is [`Modality::Unrecognized`].
    pub fn read(value: &str, notes: &mut Vec<Normalization>) -> Modality {
        if value.is_empty() {
            // A transport's unset field: not given, and nothing to unquote.
            return Modality::Other;
        }
        let v = unquote(value, "modality", notes);
        let canonical = match v {
            "" => Some(Modality::Other),
            "__modality_speech__" => Some(Modality::Speech),
            "__modality_motion__" => Some(Modality::Motion),
            "__modality_touchscreen__" => Some(Modality::Touchscreen),
            "__modality_other__" => Some(Modality::Other),
            "__modality_internal__" => Some(Modality::Internal),
            _ => None,
        };
        if let Some(m) = canonical {
            return m;
        }
        let legacy = match v {
            "speech" => Some(Modality::Speech),
            "motion" => Some(Modality::Motion),
            "touchscreen" => Some(Modality::Touchscreen),
            "other" => Some(Modality::Other),
            "internal" => Some(Modality::Internal),
            _ => None,
        };
        match legacy {
            Some(m) => {
                notes.push(Normalization::LegacyModality {
                    received: v.to_owned(),
                });
                m
            }
            None => Modality::Unrecognized(v.to_owned()),
        }
    }
}

/// A thematic role: a key of the intent's `data` object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// `agent`: who expresses the intent; allowed on every intent.
    Agent,
    /// `object`: the object, text, content id, motion or activity.
    Object,
    /// `goal`: where to.
    Goal,
    /// `recipient`: for or to whom (for `PLACE_OBJECT`: the support).
    Recipient,
    /// `input`: the raw text of `RAW_USER_INPUT`.
    Input,
    /// `locale`: the language of `RAW_USER_INPUT`.
    Locale,
    /// `gaze_mode`: the mode of `GAZE` (see [`GazeMode`]).
    GazeMode,
    /// `target`: whom or what `GAZE` looks at.
    Target,
    /// `other_data`: anything else; allowed on every intent, any JSON value.
    OtherData,
}

impl Role {
    /// Every role.
    pub const ALL: &'static [Role] = &[
        Role::Agent,
        Role::Object,
        Role::Goal,
        Role::Recipient,
        Role::Input,
        Role::Locale,
        Role::GazeMode,
        Role::Target,
        Role::OtherData,
    ];

    /// The key in `data`.
    pub fn key(self) -> &'static str {
        match self {
            Role::Agent => "agent",
            Role::Object => "object",
            Role::Goal => "goal",
            Role::Recipient => "recipient",
            Role::Input => "input",
            Role::Locale => "locale",
            Role::GazeMode => "gaze_mode",
            Role::Target => "target",
            Role::OtherData => "other_data",
        }
    }

    /// The role with this key.
    pub fn from_key(key: &str) -> Option<Role> {
        // A match (the compiler tells the keys apart by length first), not a search of
        // `ALL` comparing every key: `Role::ALL` and `Role::key` are held to it by a test.
        Some(match key {
            "agent" => Role::Agent,
            "object" => Role::Object,
            "goal" => Role::Goal,
            "recipient" => Role::Recipient,
            "input" => Role::Input,
            "locale" => Role::Locale,
            "gaze_mode" => Role::GazeMode,
            "target" => Role::Target,
            "other_data" => Role::OtherData,
            _ => return None,
        })
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The modes of `GAZE` (`gaze_mode` role).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GazeMode {
    /// Look at one person.
    Individual,
    /// Look around a group.
    Group,
    /// Idle gaze.
    Idle,
    /// Look at a point.
    Point,
}

impl GazeMode {
    /// Every mode's wire name.
    pub const NAMES: &'static [&'static str] = &["INDIVIDUAL", "GROUP", "IDLE", "POINT"];

    /// The mode with this wire name (exact, upper case as in the forks).
    pub fn from_wire(value: &str) -> Option<GazeMode> {
        match value {
            "INDIVIDUAL" => Some(GazeMode::Individual),
            "GROUP" => Some(GazeMode::Group),
            "IDLE" => Some(GazeMode::Idle),
            "POINT" => Some(GazeMode::Point),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_standard_intent_round_trips_through_its_wire_value() {
        for kind in IntentKind::STANDARD {
            let mut notes = Vec::new();
            assert_eq!(&IntentKind::read(kind.wire(), &mut notes), kind);
            assert!(notes.is_empty());
            let name = kind.constant_name().unwrap();
            assert_eq!(IntentKind::from_constant_name(name).as_ref(), Some(kind));
        }
        assert_eq!(IntentKind::STANDARD.len(), 18);
        for (i, kind) in IntentKind::STANDARD.iter().enumerate() {
            assert_eq!(kind.standard_index(), Some(i as u8), "{kind}");
        }
        assert_eq!(IntentKind::Custom("x".into()).standard_index(), None);
    }

    #[test]
    fn every_role_is_found_by_its_key() {
        for role in Role::ALL {
            assert_eq!(Role::from_key(role.key()), Some(*role));
        }
        for key in ["", "Goal", "goal ", "other", "gaze", "targets"] {
            assert_eq!(Role::from_key(key), None, "{key:?}");
        }
    }

    /// A value reads the same quoted or not, blanks inside the quotes included, so what is
    /// read writes back and reads back the same (a proptest found `"\t"` read as a person
    /// named TAB, written as TAB, and read back as unknown).
    #[test]
    fn blanks_inside_quotes_are_trimmed_like_blanks_outside() {
        let mut notes = Vec::new();
        assert_eq!(Source::read("\"\t\"", &mut notes), Source::Unknown);
        assert_eq!(Source::read("\t", &mut notes), Source::Unknown);
        assert_eq!(
            Source::read("\" person_1 \"", &mut notes),
            Source::Person("person_1".into())
        );
        let read = Source::read("\" person_1 \"", &mut notes);
        assert_eq!(Source::read(read.wire(), &mut notes), read);
        assert_eq!(
            IntentKind::read("\" __intent_say__\"", &mut notes),
            IntentKind::Say
        );
    }

    /// What `unquote` does, without its shortcut for values with nothing to trim.
    fn unquote_in_full<'a>(value: &'a str, notes: &mut Vec<Normalization>) -> &'a str {
        let trimmed = value.trim();
        if trimmed.len() >= 2 && trimmed.starts_with('"') && trimmed.ends_with('"') {
            notes.push(Normalization::QuotedConstant { field: "intent" });
            trimmed[1..trimmed.len() - 1].trim()
        } else {
            trimmed
        }
    }

    proptest::proptest! {
        /// The shortcut of `unquote` answers what trimming and unquoting answer, on values
        /// made of quotes, ASCII and Unicode blanks, control characters and letters.
        #[test]
        fn unquote_shortcut_changes_nothing(
            value in "[\"a-z_\t \u{1f}\u{85}\u{a0}\u{2003}é]{0,8}"
        ) {
            let (mut fast, mut full) = (Vec::new(), Vec::new());
            proptest::prop_assert_eq!(
                unquote(&value, "intent", &mut fast),
                unquote_in_full(&value, &mut full)
            );
            proptest::prop_assert_eq!(fast, full);
        }
    }

    #[test]
    fn quoted_and_aliased_intents_are_corrected_and_reported() {
        let mut notes = Vec::new();
        assert_eq!(
            IntentKind::read("\"__intent_move_to__\"", &mut notes),
            IntentKind::MoveTo
        );
        assert_eq!(
            notes,
            vec![Normalization::QuotedConstant { field: "intent" }]
        );
        notes.clear();
        assert_eq!(
            IntentKind::read("__start_activity__", &mut notes),
            IntentKind::StartActivity
        );
        assert_eq!(notes.len(), 1);
        notes.clear();
        let custom = IntentKind::read("__intent_make_coffee__", &mut notes);
        assert_eq!(custom, IntentKind::Custom("__intent_make_coffee__".into()));
        assert_eq!(custom.wire(), "__intent_make_coffee__");
        assert!(notes.is_empty());
    }

    #[test]
    fn modalities_read_every_spelling_and_keep_unknown_ones() {
        let mut notes = Vec::new();
        for (v, m) in [
            ("__modality_speech__", Modality::Speech),
            ("\"speech\"", Modality::Speech),
            ("motion", Modality::Motion),
            ("\"__modality_touchscreen__\"", Modality::Touchscreen),
            ("internal", Modality::Internal),
            ("other", Modality::Other),
        ] {
            assert_eq!(Modality::read(v, &mut notes), m, "{v}");
        }
        assert_eq!(
            Modality::read("telepathy", &mut notes),
            Modality::Unrecognized("telepathy".into())
        );
        assert_eq!(Modality::Speech.wire(), "__modality_speech__");
    }

    #[test]
    fn sources_read_constants_aliases_and_people() {
        let mut notes = Vec::new();
        assert_eq!(
            Source::read("__remote_supervisor__", &mut notes),
            Source::RemoteSupervisor
        );
        assert_eq!(
            Source::read("UNKONOWN_USER", &mut notes),
            Source::UnknownAgent
        );
        assert_eq!(
            Source::read("person_b4x9", &mut notes),
            Source::Person("person_b4x9".into())
        );
        assert_eq!(notes.len(), 1);
    }

    /// An empty source or modality is one not given: read as a JSON message without the
    /// field reads it (unknown, other), without a note; a non-empty unknown one is kept.
    #[test]
    fn empty_sources_and_modalities_are_not_given() {
        for value in ["", " \t", "\"\"", "\" \""] {
            let mut notes = Vec::new();
            assert_eq!(
                Source::read(value, &mut notes),
                Source::Unknown,
                "{value:?}"
            );
            assert_eq!(
                Modality::read(value, &mut notes),
                Modality::Other,
                "{value:?}"
            );
            let quoted = value.contains('"');
            let expected: &[Normalization] = if quoted {
                &[
                    Normalization::QuotedConstant { field: "source" },
                    Normalization::QuotedConstant { field: "modality" },
                ]
            } else {
                &[]
            };
            assert_eq!(notes, expected, "{value:?}");
        }
        let mut notes = Vec::new();
        assert_eq!(
            Modality::read("__modality_telepathy__", &mut notes),
            Modality::Unrecognized("__modality_telepathy__".into())
        );
        assert!(notes.is_empty());
    }
}
