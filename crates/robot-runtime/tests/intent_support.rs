//! Shared by the `intent_*` tests and `benches/intent.rs` (`#[path]`-included): a user-intent
//! union written exactly the way `clad-codegen` emits one (serde attributes, `…Tag` enum,
//! `CladUnion` impl), a `CloudMic::Message` mirror, and a hand-written `StaticIntentMap`
//! shaped like the original's unit-test map (§4.4 of the intent-runtime spec).
//!
//! The mirror implements `CladUnion::deserialize_struct_member` for `set_timer` and
//! `test_timeWithUnits` only, so these tests cover both the direct path (what generated
//! unions take for every structure member) and the fallback through the union's own
//! `Deserialize`; `examples/robot` runs the same pipeline over generated code.
//!
//! As its own test target it only checks that it compiles.
#![allow(dead_code)]

use robot_runtime::intent::{
    CloudEvent, MapEntry, Sanitation, SimpleVoiceResponse, StaticIntentMap,
};
use robot_runtime::union::CladUnion;

// ---------------------------------------------------------------------------------------
// Payload structures and enums (as generated: `default` on every structure).
// ---------------------------------------------------------------------------------------

/// `structure UserIntent_Void {}`
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct Void {}

/// `structure UserIntent_MeetVictor { string username }`
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct MeetVictor {
    pub username: String,
}

/// `structure UserIntent_TimeInSeconds { uint_32 time_s }`
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct TimeInSeconds {
    pub time_s: u32,
}

/// `structure UserIntent_WeatherResponse { string × 7 }`
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct WeatherResponse {
    #[serde(rename = "speakableLocationString")]
    pub speakable_location_string: String,
    #[serde(rename = "isForecast")]
    pub is_forecast: String,
    pub condition: String,
    pub temperature: String,
    #[serde(rename = "temperatureUnit")]
    pub temperature_unit: String,
    #[serde(rename = "localDateTime")]
    pub local_date_time: String,
    #[serde(rename = "dayOrNight")]
    pub day_or_night: String,
}

/// `structure UserIntent_GlobalStop { string what_to_stop }`
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct GlobalStop {
    pub what_to_stop: String,
}

/// `structure UserIntent_KnowledgeResponse { string answer, string query_text }`
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct KnowledgeResponse {
    pub answer: String,
    pub query_text: String,
}

/// `enum uint_8 ActiveFeature { NoFeature, BasicVoiceCommand, MovementForward, ReactToHello }`
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde")]
#[repr(u8)]
pub enum ActiveFeature {
    #[default]
    NoFeature = 0,
    BasicVoiceCommand = 1,
    MovementForward = 2,
    ReactToHello = 3,
}

/// `structure MetaUserIntent_SimpleVoiceResponse { ... }`
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct SimpleVoiceResponsePayload {
    pub anim_group: String,
    pub emotion_event: String,
    pub active_feature: ActiveFeature,
    pub disable_wakeword_turn: bool,
}

/// `structure UserIntent_Test_Name { string name }`
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct TestName {
    pub name: String,
}

/// `enum uint_8 UserIntent_Test_Time_Units { s, m }`
#[allow(non_camel_case_types)]
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde")]
#[repr(u8)]
pub enum TimeUnits {
    #[default]
    #[serde(rename = "s")]
    S = 0,
    #[serde(rename = "m")]
    M = 1,
}

/// `structure UserIntent_Test_TimeWithUnits { uint_32 time, UserIntent_Test_Time_Units units }`
#[derive(
    Clone,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct TestTimeWithUnits {
    pub time: u32,
    pub units: TimeUnits,
}

/// `structure UserIntent_Test_Ratio { float_32 ratio, int_16 offset }` (floats use the
/// runtime's CLAD-JSON float helper, as generated).
#[derive(
    Clone,
    Debug,
    PartialEq,
    Default,
    ::robot_runtime::serde::Serialize,
    ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", default)]
pub struct TestRatio {
    #[serde(with = "::robot_runtime::json::f32")]
    pub ratio: f32,
    pub offset: i16,
}

// ---------------------------------------------------------------------------------------
// union UserIntent (dupes_allowed)
// ---------------------------------------------------------------------------------------

/// The user-intent union.
#[derive(
    Clone, Debug, PartialEq, ::robot_runtime::serde::Serialize, ::robot_runtime::serde::Deserialize,
)]
#[serde(crate = "::robot_runtime::serde", tag = "type")]
#[allow(clippy::large_enum_variant, clippy::enum_variant_names)]
pub enum UserIntent {
    #[serde(rename = "unmatched_intent")]
    UnmatchedIntent(Void),
    #[serde(rename = "greeting_goodmorning")]
    GreetingGoodmorning(Void),
    #[serde(rename = "global_stop")]
    GlobalStop(GlobalStop),
    #[serde(rename = "imperative_come")]
    ImperativeCome(Void),
    #[serde(rename = "imperative_lookoverthere")]
    ImperativeLookoverthere(Void),
    #[serde(rename = "knowledge_response")]
    KnowledgeResponse(KnowledgeResponse),
    #[serde(rename = "meet_victor")]
    MeetVictor(MeetVictor),
    #[serde(rename = "set_timer")]
    SetTimer(TimeInSeconds),
    #[serde(rename = "weather_response")]
    WeatherResponse(WeatherResponse),
    #[serde(rename = "test_SEPARATOR")]
    TestSeparator(Void),
    #[serde(rename = "simple_voice_response")]
    SimpleVoiceResponse(SimpleVoiceResponsePayload),
    #[serde(rename = "test_user_intent_1")]
    TestUserIntent1(Void),
    #[serde(rename = "test_user_intent_2")]
    TestUserIntent2(Void),
    #[serde(rename = "test_name")]
    TestName(TestName),
    #[serde(rename = "test_timeWithUnits")]
    TestTimeWithUnits(TestTimeWithUnits),
    #[serde(rename = "test_ratio")]
    TestRatio(TestRatio),
    /// A non-structure member (payload under `"value"`).
    #[serde(rename = "test_value", with = "::robot_runtime::json::value")]
    TestValue(u8),
}

/// The tags of [`UserIntent`], with their wire values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(clippy::enum_variant_names)]
pub enum UserIntentTag {
    UnmatchedIntent = 0,
    GreetingGoodmorning = 1,
    GlobalStop = 2,
    ImperativeCome = 3,
    ImperativeLookoverthere = 4,
    KnowledgeResponse = 5,
    MeetVictor = 6,
    SetTimer = 7,
    WeatherResponse = 8,
    TestSeparator = 9,
    SimpleVoiceResponse = 10,
    TestUserIntent1 = 11,
    TestUserIntent2 = 12,
    TestName = 13,
    TestTimeWithUnits = 14,
    TestRatio = 15,
    TestValue = 16,
}

impl UserIntentTag {
    pub const ALL: [Self; 17] = [
        Self::UnmatchedIntent,
        Self::GreetingGoodmorning,
        Self::GlobalStop,
        Self::ImperativeCome,
        Self::ImperativeLookoverthere,
        Self::KnowledgeResponse,
        Self::MeetVictor,
        Self::SetTimer,
        Self::WeatherResponse,
        Self::TestSeparator,
        Self::SimpleVoiceResponse,
        Self::TestUserIntent1,
        Self::TestUserIntent2,
        Self::TestName,
        Self::TestTimeWithUnits,
        Self::TestRatio,
        Self::TestValue,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Self::UnmatchedIntent => "unmatched_intent",
            Self::GreetingGoodmorning => "greeting_goodmorning",
            Self::GlobalStop => "global_stop",
            Self::ImperativeCome => "imperative_come",
            Self::ImperativeLookoverthere => "imperative_lookoverthere",
            Self::KnowledgeResponse => "knowledge_response",
            Self::MeetVictor => "meet_victor",
            Self::SetTimer => "set_timer",
            Self::WeatherResponse => "weather_response",
            Self::TestSeparator => "test_SEPARATOR",
            Self::SimpleVoiceResponse => "simple_voice_response",
            Self::TestUserIntent1 => "test_user_intent_1",
            Self::TestUserIntent2 => "test_user_intent_2",
            Self::TestName => "test_name",
            Self::TestTimeWithUnits => "test_timeWithUnits",
            Self::TestRatio => "test_ratio",
            Self::TestValue => "test_value",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl UserIntent {
    pub fn tag(&self) -> UserIntentTag {
        match self {
            Self::UnmatchedIntent(_) => UserIntentTag::UnmatchedIntent,
            Self::GreetingGoodmorning(_) => UserIntentTag::GreetingGoodmorning,
            Self::GlobalStop(_) => UserIntentTag::GlobalStop,
            Self::ImperativeCome(_) => UserIntentTag::ImperativeCome,
            Self::ImperativeLookoverthere(_) => UserIntentTag::ImperativeLookoverthere,
            Self::KnowledgeResponse(_) => UserIntentTag::KnowledgeResponse,
            Self::MeetVictor(_) => UserIntentTag::MeetVictor,
            Self::SetTimer(_) => UserIntentTag::SetTimer,
            Self::WeatherResponse(_) => UserIntentTag::WeatherResponse,
            Self::TestSeparator(_) => UserIntentTag::TestSeparator,
            Self::SimpleVoiceResponse(_) => UserIntentTag::SimpleVoiceResponse,
            Self::TestUserIntent1(_) => UserIntentTag::TestUserIntent1,
            Self::TestUserIntent2(_) => UserIntentTag::TestUserIntent2,
            Self::TestName(_) => UserIntentTag::TestName,
            Self::TestTimeWithUnits(_) => UserIntentTag::TestTimeWithUnits,
            Self::TestRatio(_) => UserIntentTag::TestRatio,
            Self::TestValue(_) => UserIntentTag::TestValue,
        }
    }
}

impl CladUnion for UserIntent {
    type Tag = UserIntentTag;
    const NAME: &'static str = "UserIntent";
    const TAGS: &'static [UserIntentTag] = &UserIntentTag::ALL;

    fn tag(&self) -> UserIntentTag {
        UserIntent::tag(self)
    }
    fn tag_name(tag: UserIntentTag) -> &'static str {
        tag.name()
    }
    fn tag_from_name(name: &str) -> Option<UserIntentTag> {
        UserIntentTag::from_name(name)
    }
    fn tag_value(tag: UserIntentTag) -> u8 {
        tag as u8
    }
    fn default_for(tag: UserIntentTag) -> Self {
        match tag {
            UserIntentTag::UnmatchedIntent => Self::UnmatchedIntent(Default::default()),
            UserIntentTag::GreetingGoodmorning => Self::GreetingGoodmorning(Default::default()),
            UserIntentTag::GlobalStop => Self::GlobalStop(Default::default()),
            UserIntentTag::ImperativeCome => Self::ImperativeCome(Default::default()),
            UserIntentTag::ImperativeLookoverthere => {
                Self::ImperativeLookoverthere(Default::default())
            }
            UserIntentTag::KnowledgeResponse => Self::KnowledgeResponse(Default::default()),
            UserIntentTag::MeetVictor => Self::MeetVictor(Default::default()),
            UserIntentTag::SetTimer => Self::SetTimer(Default::default()),
            UserIntentTag::WeatherResponse => Self::WeatherResponse(Default::default()),
            UserIntentTag::TestSeparator => Self::TestSeparator(Default::default()),
            UserIntentTag::SimpleVoiceResponse => Self::SimpleVoiceResponse(Default::default()),
            UserIntentTag::TestUserIntent1 => Self::TestUserIntent1(Default::default()),
            UserIntentTag::TestUserIntent2 => Self::TestUserIntent2(Default::default()),
            UserIntentTag::TestName => Self::TestName(Default::default()),
            UserIntentTag::TestTimeWithUnits => Self::TestTimeWithUnits(Default::default()),
            UserIntentTag::TestRatio => Self::TestRatio(Default::default()),
            UserIntentTag::TestValue => Self::TestValue(Default::default()),
        }
    }
    fn payload_is_struct(tag: UserIntentTag) -> bool {
        !matches!(tag, UserIntentTag::TestValue)
    }
    // Generated unions provide this for every structure member; the mirror provides it for
    // two (one with an enum field), so both translator paths are exercised here.
    fn deserialize_struct_member<'de, D>(
        tag: UserIntentTag,
        fields: D,
    ) -> Option<Result<Self, D::Error>>
    where
        D: serde::Deserializer<'de>,
    {
        use robot_runtime::union::struct_member;
        Some(match tag {
            UserIntentTag::SetTimer => struct_member(fields, Self::SetTimer),
            UserIntentTag::TestTimeWithUnits => struct_member(fields, Self::TestTimeWithUnits),
            _ => return None,
        })
    }
}

// ---------------------------------------------------------------------------------------
// The intent map (what the map compiler emits from a user_intent_map.json): sorted tables.
// ---------------------------------------------------------------------------------------

use UserIntentTag as T;

const fn entry(
    intent: &'static str,
    tag: T,
    sanitation: &'static [Sanitation],
    feature_gate: Option<&'static str>,
) -> MapEntry<T> {
    MapEntry {
        intent,
        tag,
        sanitation,
        feature_gate,
    }
}

const fn rename(from: &'static str, to: &'static str, numeric: bool) -> Sanitation {
    Sanitation {
        from,
        to: Some(to),
        numeric,
    }
}

pub static CLOUD: [MapEntry<T>; 14] = [
    entry(
        "intent_clock_settimer",
        T::SetTimer,
        &[rename("timer_duration", "time_s", true)],
        None,
    ),
    entry("intent_global_stop_extend", T::GlobalStop, &[], None),
    entry(
        "intent_greeting_goodmorning",
        T::GreetingGoodmorning,
        &[],
        None,
    ),
    entry("intent_imperative_come", T::ImperativeCome, &[], None),
    entry(
        "intent_imperative_lookoverthere",
        T::ImperativeLookoverthere,
        &[],
        Some("GazeDirection"),
    ),
    entry(
        "intent_knowledge_response_extend",
        T::KnowledgeResponse,
        &[],
        None,
    ),
    entry("intent_names_username_extend", T::MeetVictor, &[], None),
    entry("intent_test_name", T::TestName, &[], None),
    entry(
        "intent_test_ratio",
        T::TestRatio,
        &[
            Sanitation {
                from: "ratio",
                to: None,
                numeric: true,
            },
            Sanitation {
                from: "offset",
                to: None,
                numeric: true,
            },
        ],
        None,
    ),
    entry(
        "intent_test_time",
        T::TestTimeWithUnits,
        &[
            rename("timer_duration.time", "time", true),
            rename("timer_duration.units", "units", false),
        ],
        None,
    ),
    entry("intent_test_user_intent_1", T::TestUserIntent1, &[], None),
    entry("intent_test_user_intent_2", T::TestUserIntent2, &[], None),
    entry(
        "intent_test_value",
        T::TestValue,
        &[rename("v", "value", true)],
        None,
    ),
    entry(
        "intent_weather_extend",
        T::WeatherResponse,
        &[
            rename(
                "speakable_location_string",
                "speakableLocationString",
                false,
            ),
            rename("is_forecast", "isForecast", false),
            rename("temperature_unit", "temperatureUnit", false),
            rename("local_date_time", "localDateTime", false),
            rename("day_or_night", "dayOrNight", false),
        ],
        None,
    ),
];

pub static APP: [MapEntry<T>; 3] = [
    entry(
        "intent_clock_settimer",
        T::SetTimer,
        &[rename("param", "time_s", true)],
        None,
    ),
    entry(
        "intent_meet_victor",
        T::MeetVictor,
        &[rename("param", "username", false)],
        None,
    ),
    entry("intent_test_user_intent_2", T::TestUserIntent2, &[], None),
];

pub static SIMPLE_VOICE: [SimpleVoiceResponse; 2] = [
    SimpleVoiceResponse {
        cloud_intent: "intent_greeting_hello",
        anim_group: "ag_greeting_hello",
        emotion_event: "",
        active_feature: "ReactToHello",
        disable_wakeword_turn: false,
        feature_gate: Some("ReactToHello"),
    },
    SimpleVoiceResponse {
        cloud_intent: "intent_imperative_forward",
        anim_group: "ag_movement_forward_01",
        emotion_event: "",
        active_feature: "MovementForward",
        disable_wakeword_turn: true,
        feature_gate: None,
    },
];

pub static MAP: StaticIntentMap<T> = StaticIntentMap {
    cloud: &CLOUD,
    app: &APP,
    simple_voice: &SIMPLE_VOICE,
    simple_voice_tag: Some(T::SimpleVoiceResponse),
    unmatched: T::UnmatchedIntent,
};

/// The weather parameters the cloud sends (Go's encoder: stringified, trailing newline).
pub const WEATHER_PARAMS: &str = "{\"condition\":\"Cloudy\",\"day_or_night\":\"day\",\"is_forecast\":\"false\",\"local_date_time\":\"2018-05-03T10:30:00-07:00\",\"speakable_location_string\":\"San Francisco\",\"temperature\":\"17\",\"temperature_unit\":\"C\"}\n";

/// The typed intent [`WEATHER_PARAMS`] must become.
pub fn weather() -> UserIntent {
    UserIntent::WeatherResponse(WeatherResponse {
        speakable_location_string: "San Francisco".into(),
        is_forecast: "false".into(),
        condition: "Cloudy".into(),
        temperature: "17".into(),
        temperature_unit: "C".into(),
        local_date_time: "2018-05-03T10:30:00-07:00".into(),
        day_or_night: "day".into(),
    })
}

// ---------------------------------------------------------------------------------------
// CloudMic::Message mirror (the robot crate's generated union) and its adapter.
// ---------------------------------------------------------------------------------------

pub mod cloud_mic {
    use robot_runtime::intent::CloudEvent;

    macro_rules! payload {
        ($name:ident { $($(#[$m:meta])* $f:ident: $t:ty),* $(,)? }) => {
            #[derive(Clone, Debug, PartialEq, Default)]
            #[derive(::robot_runtime::serde::Serialize, ::robot_runtime::serde::Deserialize)]
            #[serde(crate = "::robot_runtime::serde", default)]
            #[allow(non_snake_case)]
            pub struct $name { $($(#[$m])* pub $f: $t,)* }
        };
    }

    #[derive(
        Clone,
        Copy,
        Debug,
        PartialEq,
        Eq,
        Default,
        ::robot_runtime::serde::Serialize,
        ::robot_runtime::serde::Deserialize,
    )]
    #[serde(crate = "::robot_runtime::serde")]
    pub enum StreamType {
        #[default]
        Normal,
        Blackjack,
        KnowledgeGraph,
    }

    #[derive(
        Clone,
        Copy,
        Debug,
        PartialEq,
        Eq,
        Default,
        ::robot_runtime::serde::Serialize,
        ::robot_runtime::serde::Deserialize,
    )]
    #[serde(crate = "::robot_runtime::serde")]
    pub enum ErrorType {
        #[default]
        Server,
        Timeout,
        Json,
        InvalidConfig,
        Connecting,
        NewStream,
        Token,
        #[serde(rename = "TLS")]
        Tls,
        Connectivity,
    }

    impl ErrorType {
        pub const fn name(self) -> &'static str {
            match self {
                Self::Server => "Server",
                Self::Timeout => "Timeout",
                Self::Json => "Json",
                Self::InvalidConfig => "InvalidConfig",
                Self::Connecting => "Connecting",
                Self::NewStream => "NewStream",
                Self::Token => "Token",
                Self::Tls => "TLS",
                Self::Connectivity => "Connectivity",
            }
        }
    }

    #[derive(
        Clone,
        Copy,
        Debug,
        PartialEq,
        Eq,
        Default,
        ::robot_runtime::serde::Serialize,
        ::robot_runtime::serde::Deserialize,
    )]
    #[serde(crate = "::robot_runtime::serde")]
    pub enum ConnectionCode {
        #[default]
        Available,
        Connectivity,
        Tls,
        Auth,
        Bandwidth,
    }

    payload!(Void {});
    payload!(StreamOpen { session: String });
    payload!(Hotword {
        mode: StreamType,
        locale: String,
        timezone: String,
        noLogging: bool
    });
    payload!(Filename { file: String });
    payload!(AudioData { data: Vec<i16> });
    payload!(IntentResult {
        intent: String,
        parameters: String,
        metadata: String
    });
    payload!(IntentError {
        error: ErrorType,
        extra: String
    });
    payload!(ConnectionResult {
        code: ConnectionCode,
        status: String,
        numPackets: u8,
        expectedPackets: u8
    });

    #[derive(
        Clone,
        Debug,
        PartialEq,
        ::robot_runtime::serde::Serialize,
        ::robot_runtime::serde::Deserialize,
    )]
    #[serde(crate = "::robot_runtime::serde", tag = "type")]
    pub enum Message {
        #[serde(rename = "hotword")]
        Hotword(Hotword),
        #[serde(rename = "audio")]
        Audio(AudioData),
        #[serde(rename = "audioDone")]
        AudioDone(Void),
        #[serde(rename = "connectionCheck")]
        ConnectionCheck(Void),
        #[serde(rename = "stopSignal")]
        StopSignal(Void),
        #[serde(rename = "testStarted")]
        TestStarted(Void),
        #[serde(rename = "streamTimeout")]
        StreamTimeout(Void),
        #[serde(rename = "connectionResult")]
        ConnectionResult(ConnectionResult),
        #[serde(rename = "debugFile")]
        DebugFile(Filename),
        #[serde(rename = "result")]
        Result(IntentResult),
        #[serde(rename = "error")]
        Error(IntentError),
        #[serde(rename = "streamOpen")]
        StreamOpen(StreamOpen),
    }

    impl Message {
        pub fn name(&self) -> &'static str {
            match self {
                Self::Hotword(_) => "hotword",
                Self::Audio(_) => "audio",
                Self::AudioDone(_) => "audioDone",
                Self::ConnectionCheck(_) => "connectionCheck",
                Self::StopSignal(_) => "stopSignal",
                Self::TestStarted(_) => "testStarted",
                Self::StreamTimeout(_) => "streamTimeout",
                Self::ConnectionResult(_) => "connectionResult",
                Self::DebugFile(_) => "debugFile",
                Self::Result(_) => "result",
                Self::Error(_) => "error",
                Self::StreamOpen(_) => "streamOpen",
            }
        }
    }

    /// The robot's adapter (see `robot_runtime::intent::cloud` docs).
    impl From<Message> for CloudEvent {
        fn from(m: Message) -> Self {
            match m {
                Message::Result(r) => CloudEvent::Result {
                    intent: r.intent,
                    parameters: r.parameters,
                    metadata: r.metadata,
                },
                Message::Error(e) => CloudEvent::Error {
                    error: e.error.name(),
                    extra: e.extra,
                },
                Message::StreamTimeout(_) => CloudEvent::StreamTimeout,
                Message::StreamOpen(s) => CloudEvent::StreamOpen { session: s.session },
                other => CloudEvent::Other {
                    message: other.name(),
                },
            }
        }
    }
}

/// `CloudEvent::result` shorthand.
pub fn result(intent: &str, params: &str) -> CloudEvent {
    CloudEvent::result(intent, params)
}
