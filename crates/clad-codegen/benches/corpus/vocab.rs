//! The words the generator draws names from, and the reserved words it avoids.

/// Spec §1.5: the union of the C, C++, Python and C# keyword lists.
#[rustfmt::skip]
pub(super) const RESERVED: &[&str] = &[
    "abstract", "and", "and_eq", "as", "asm", "assert", "auto", "base", "bitand", "bitor", "bool",
    "break", "byte", "case", "catch", "char", "checked", "class", "compl", "const", "const_cast",
    "continue", "decimal", "def", "default", "del", "delegate", "delete", "do", "double",
    "dynamic_cast", "elif", "else", "enum", "event", "except", "exec", "explicit", "extern",
    "False", "false", "finally", "fixed", "float", "for", "foreach", "friend", "from", "global",
    "goto", "if", "implicit", "import", "in", "inline", "int", "interface", "internal", "is",
    "lambda", "lock", "long", "mutable", "namespace", "new", "None", "nonlocal", "not", "not_eq",
    "null", "object", "operator", "or", "or_eq", "out", "override", "params", "pass", "print",
    "private", "protected", "public", "raise", "readonly", "ref", "register", "reinterpret_cast",
    "return", "sbyte", "sealed", "short", "signed", "sizeof", "stackalloc", "static",
    "static_cast", "string", "struct", "switch", "template", "this", "throw", "True", "true",
    "try", "type", "typedef", "typeid", "typename", "typeof", "uint", "ulong", "unchecked",
    "union", "unsafe", "unsigned", "ushort", "using", "virtual", "void", "volatile", "wchar_t",
    "while", "with", "xor", "xor_eq", "yield",
];

/// Names of the hand-written declarations, reserved before anything is generated.
#[rustfmt::skip]
pub(super) const SPECIAL_NAMES: &[&str] = &[
    "CommsConstants", "ActionResultCategory", "ARCBitShift", "ActionResult", "AnimationTrigger",
    "BehaviorID", "UserIntent", "UserIntent_Void", "MessageGameToEngine", "MessageEngineToGame",
    "AnimationStarted", "BehaviorTransition", "UserIntentReceived", "LogEnvelope", "VizColorId",
    "MicVoid", "DocsVoid", "Message", "DocRequest", "TokenRequest", "RtsConnection",
    "RtsConnection_1", "RtsConnection_2", "RtsConnection_3", "RtsConnection_4", "RtsConnection_5",
    "ExternalCommsMessage", "VizMessage", "RobotToEngine", "EngineToRobot", "ExternalToRobot",
    "RobotToExternal", "RobotPublicState", "ActiveFeatureType", "ActiveFeatureId",
];

/// Namespace names (types never take these names).
#[rustfmt::skip]
pub(super) const NAMESPACES: &[&str] = &[
    "Anki", "Vector", "Vision", "Util", "AudioMetaData", "GameEvent", "ExternalInterface",
    "RobotInterface", "Gateway", "CloudMic", "JDocs", "TokenComms", "LogCollector",
    "ExternalComms", "VizInterface",
];

#[rustfmt::skip]
pub(super) const TOPICS: &[&str] = &[
    "Anim", "Battery", "Behavior", "Block", "Camera", "Charger", "Cliff", "Cube", "Display",
    "Face", "Feature", "Habitat", "Head", "Imu", "Lift", "Light", "Map", "Mic", "Motor", "Nav",
    "Onboarding", "Path", "Pet", "Pose", "Power", "Prox", "Sdk", "Settings", "Sleep",
    "Stimulation", "Touch", "Tracking", "Update", "Wake", "Wheel", "Wifi", "Alexa", "Jdoc", "Log",
    "Timer", "Weather", "Volume", "Eye", "Photo", "Marker", "Dock", "Emotion", "Sound",
];

/// Extra type files under `types/behaviorComponent/`: (file stem, type-name prefix).
pub(super) const BEHAVIOR_FILES: &[(&str, &str)] = &[
    ("behaviorTypes", "BehaviorKind"),
    ("beiConditionTypes", "BeiCondition"),
    ("cubeSpinnerTypes", "CubeSpinner"),
    ("attentionTransferTypes", "AttentionTransfer"),
    ("weatherConditionTypes", "WeatherCondition"),
    ("userFacingResults", "UserFacing"),
    ("activeFeatures", "ActiveFeature"),
    ("reactionTriggers", "ReactionTrigger"),
    ("behaviorStats", "BehaviorStat"),
    ("postBehaviorSuggestions", "PostBehavior"),
    ("onboardingStages", "OnboardingStage"),
    ("simpleMoodTypes", "SimpleMood"),
    ("behaviorClasses", "BehaviorClass"),
];

#[rustfmt::skip]
pub(super) const QUALIFIERS: &[&str] = &[
    "Tap", "Connect", "Move", "Stop", "Play", "Set", "Get", "Clear", "Reset", "Enable",
    "Calibrate", "Select", "Save", "Load", "Erase", "Capture", "Stream", "Sync", "Upload",
    "Refresh", "Abort", "Cancel", "Start", "Verify", "Pair", "Track", "Lock", "Scan",
];

pub(super) const G2E_NOUNS: &[&str] =
    &["Request", "Command", "Query", "Params", "Toggle", "Action"];
#[rustfmt::skip]
pub(super) const E2G_NOUNS: &[&str] = &[
    "Event", "State", "Status", "Result", "Started", "Completed", "Failed", "Changed", "Report",
    "Progress",
];
pub(super) const SHARED_NOUNS: &[&str] =
    &["Info", "Update", "Ack", "Stats", "Notification", "Message"];
pub(super) const ROBOT_NOUNS: &[&str] = &["Msg", "Packet", "Sample", "Cmd", "Reading", "Ack"];
#[rustfmt::skip]
pub(super) const STRUCT_NOUNS: &[&str] = &[
    "Config", "Data", "Entry", "Snapshot", "Descriptor", "Settings", "Record", "Bounds", "Tuning",
    "Sample", "Spec", "Params",
];
pub(super) const ENUM_NOUNS: &[&str] = &[
    "Type", "Mode", "Id", "Source", "Reason", "Level", "Category", "Phase", "Error", "Channel",
    "Priority", "Stage", "Kind",
];

#[rustfmt::skip]
pub(super) const ENUM_WORDS: &[&str] = &[
    "Idle", "Active", "Unknown", "Invalid", "Low", "Medium", "High", "Left", "Right", "Front",
    "Back", "Up", "Down", "Primary", "Secondary", "Manual", "Automatic", "Pending", "Running",
    "Done", "Failed", "Timeout", "Cancelled", "Connected", "Disconnected", "Charging", "Sleeping",
    "Waking", "Searching", "Found", "Lost", "Red", "Green", "Blue", "White", "Off", "On", "Happy",
    "Sad", "Angry", "Bored", "Tired", "Curious", "Short", "Long", "Single", "Double", "Triple",
    "Near", "Far", "Small", "Large", "Ready", "Busy", "Paused", "Resumed", "Started", "Stopped",
    "Error", "Success", "Warning", "Critical", "Custom", "Test", "Debug", "Release",
];

pub(super) const FIELD_HEADS: &[&str] = &[
    "robot", "object", "face", "cube", "head", "lift", "wheel", "path", "anim", "motor", "track",
    "target", "cliff", "light", "audio", "battery", "charger", "pose", "marker", "camera", "image",
    "touch", "prox", "pet", "timer", "volume", "wifi", "user", "app", "session", "request",
    "behavior", "intent", "action", "sensor", "accel", "gyro", "left", "right", "front", "back",
    "max", "min", "avg", "last", "next", "prev", "start", "end",
];

#[rustfmt::skip]
pub(super) const FIELD_TAILS: &[&str] = &[
    "Id", "Angle", "Speed", "Duration", "Count", "Index", "Time", "Level", "Mode", "Flags",
    "Value", "Offset", "Threshold", "Radius", "Height", "Name", "State", "Kind", "Tag", "Rad",
    "Mm", "Ms", "Sec", "Percent", "Volts", "Hz", "Color", "Enabled", "Valid", "X", "Y", "Z",
    "Score", "Version", "Data", "Text", "List", "Bytes", "Hash", "Seq", "Timestamp",
];

#[rustfmt::skip]
pub(super) const MEMBER_NOTES: &[&str] = &[
    "// milliseconds", "// radians", "// mm/s", "// 0 means unlimited", "// see firmware docs",
    "// deprecated, kept for wire compatibility", "// in [0, 1]", "// degrees", "// engine ticks",
    "// set by the cloud",
];

pub(super) const FLOAT_DEFAULTS: &[&str] = &[
    "0.0", "0.5", "1.0", "-1.0", "0.25", "100.0", "3.14159", "2.5", "-0.75", "1000.0", "0.05",
];

pub(super) const BUILTINS_WEIGHTED: &[&str] = &[
    "float_32", "float_32", "float_32", "float_32", "float_32", "float_32", "float_32", "uint_32",
    "uint_32", "uint_32", "bool", "bool", "bool", "uint_8", "uint_8", "int_32", "int_32",
    "uint_16", "int_16", "uint_64", "int_8", "int_64", "float_64",
];
