//! `hri_actions_msgs/msg/Intent` (ROS4HRI) on the wire: its names, its type hash, its CDR
//! layout, and the per-transport rule for the values a ROS publisher cannot leave unset.
//!
//! Every ROS 2 release of the message (2.0.0 to 2.5.0) has the same six fields in the same
//! order, so one layout and one hash serve them all; only the constants changed, and
//! constants are not on the wire except as string values:
//!
//! ```text
//! string intent
//! string data        # a JSON object
//! string source
//! string modality
//! uint8 priority     # "0 lowest, 128 default, 255 highest" (a comment: the wire default is 0)
//! float32 confidence
//! ```

use super::cdr::{self, CdrError, CdrReader, CdrWriter};

/// The ROS type name.
pub const ROS_TYPE: &str = "hri_actions_msgs/msg/Intent";

/// The DDS-style type name rmw_zenoh puts in keys and tokens.
pub const DDS_TYPE: &str = "hri_actions_msgs::msg::dds_::Intent_";

/// The RIHS01 type hash (Iron and later), the same for every release of the message. Computed
/// from the type description (see [`TYPE_DESCRIPTION`]); a test recomputes it with SHA-256.
pub const TYPE_HASH: &str =
    "RIHS01_850d5c0a06aecf153f4cbc75f27fc655d687f93300bcc928a9d21712716fcfaa";

/// The type description RIHS01 hashes (rosidl's JSON form, `default_value` removed): the
/// SHA-256 of these bytes is [`TYPE_HASH`].
pub const TYPE_DESCRIPTION: &str = concat!(
    r#"{"type_description": {"type_name": "hri_actions_msgs/msg/Intent", "fields": ["#,
    r#"{"name": "intent", "type": {"type_id": 17, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}}, "#,
    r#"{"name": "data", "type": {"type_id": 17, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}}, "#,
    r#"{"name": "source", "type": {"type_id": 17, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}}, "#,
    r#"{"name": "modality", "type": {"type_id": 17, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}}, "#,
    r#"{"name": "priority", "type": {"type_id": 3, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}}, "#,
    r#"{"name": "confidence", "type": {"type_id": 10, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}}]}, "#,
    r#""referenced_type_descriptions": []}"#
);

/// The message's fields, in wire order.
pub const FIELDS: [&str; 6] = [
    "intent",
    "data",
    "source",
    "modality",
    "priority",
    "confidence",
];

/// One `Intent`, borrowing its strings from the payload it was decoded from: decoding
/// allocates nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IntentView<'a> {
    /// `intent`: a constant such as `__intent_move_to__`, or a custom string.
    pub intent: &'a str,
    /// `data`: the thematic roles as JSON object text (may be empty).
    pub data: &'a str,
    /// `source`: who expressed the intent.
    pub source: &'a str,
    /// `modality`: how.
    pub modality: &'a str,
    /// `priority` as sent (0 lowest, 255 highest).
    pub priority: u8,
    /// `confidence` as sent (any `f32`, NaN included: judging it is the reader's job).
    pub confidence: f32,
}

/// One `Intent` with owned strings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Intent {
    /// `intent`.
    pub intent: String,
    /// `data` (JSON object text).
    pub data: String,
    /// `source`.
    pub source: String,
    /// `modality`.
    pub modality: String,
    /// `priority`.
    pub priority: u8,
    /// `confidence`.
    pub confidence: f32,
}

impl<'a> IntentView<'a> {
    /// Decodes a payload (CDR header included), borrowing the strings. Up to 3 bytes after
    /// `confidence` are accepted as padding; anything else wrong is a [`CdrError`] naming
    /// the field and offset.
    pub fn decode(payload: &'a [u8]) -> Result<Self, CdrError> {
        let mut r = CdrReader::new(payload)?;
        let view = IntentView {
            intent: r.read_string("intent")?,
            data: r.read_string("data")?,
            source: r.read_string("source")?,
            modality: r.read_string("modality")?,
            priority: r.read_u8("priority")?,
            confidence: r.read_f32("confidence")?,
        };
        r.finish()?;
        Ok(view)
    }

    /// The payload's size in bytes (header included), as [`IntentView::encode`] writes it.
    pub fn encoded_len(&self) -> usize {
        let mut rel = 0;
        for s in [self.intent, self.data, self.source, self.modality] {
            rel += cdr::string_size(rel, s);
        }
        rel += 1; // priority
        rel = rel.next_multiple_of(4) + 4; // confidence
        4 + rel
    }

    /// Appends the payload (CDR header included) to `out`. Fails, writing nothing, when a
    /// string has a NUL inside (which CDR cannot carry).
    pub fn encode_into(&self, out: &mut Vec<u8>) -> Result<(), CdrError> {
        let start = out.len();
        out.reserve(self.encoded_len());
        let mut w = CdrWriter::new(out);
        let strings = [
            ("intent", self.intent),
            ("data", self.data),
            ("source", self.source),
            ("modality", self.modality),
        ];
        for (field, s) in strings {
            if let Err(e) = w.write_string(field, s) {
                out.truncate(start);
                return Err(e);
            }
        }
        w.write_u8(self.priority);
        w.write_f32(self.confidence);
        Ok(())
    }

    /// The payload (CDR header included).
    pub fn encode(&self) -> Result<Vec<u8>, CdrError> {
        let mut out = Vec::new();
        self.encode_into(&mut out)?;
        Ok(out)
    }

    /// An owned copy.
    pub fn to_owned_intent(&self) -> Intent {
        Intent {
            intent: self.intent.to_owned(),
            data: self.data.to_owned(),
            source: self.source.to_owned(),
            modality: self.modality.to_owned(),
            priority: self.priority,
            confidence: self.confidence,
        }
    }

    /// The priority and confidence as `rule` reads them (see [`DefaultsRule`]).
    pub fn stated(&self, rule: DefaultsRule) -> Stated {
        Stated::read(self.priority, self.confidence, rule)
    }
}

impl Intent {
    /// Decodes a payload into owned strings (four allocations at most: one per non-empty
    /// string).
    pub fn decode(payload: &[u8]) -> Result<Self, CdrError> {
        IntentView::decode(payload).map(|v| v.to_owned_intent())
    }

    /// A view borrowing this message's strings.
    pub fn view(&self) -> IntentView<'_> {
        IntentView {
            intent: &self.intent,
            data: &self.data,
            source: &self.source,
            modality: &self.modality,
            priority: self.priority,
            confidence: self.confidence,
        }
    }

    /// The payload (CDR header included).
    pub fn encode(&self) -> Result<Vec<u8>, CdrError> {
        self.view().encode()
    }
}

/// How a receiver reads the two values a ROS publisher cannot leave unset.
///
/// `Intent.msg` declares no default values ("128 is the default priority" is only a
/// comment), so every generated binding starts at priority 0 and confidence 0.0, and CDR has
/// no "absent": a touchscreen or supervisor node that never sets them sends 0 and 0.0,
/// byte-identical to a deliberate "lowest priority, no confidence". Read literally, such an
/// intent would be scheduled last and fall in every confidence policy's ignore band.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DefaultsRule {
    /// The rule for ROS transports (the default): priority 0 reads as unstated (the
    /// documented default, 128) and a confidence of exactly 0.0 as unstated (the confidence
    /// policy's rule for unstated confidences decides). Everything else is read literally.
    #[default]
    Ros,
    /// Read both literally: 0 is the lowest priority, 0.0 no confidence.
    Literal,
}

/// Priority and confidence as a [`DefaultsRule`] read them, with the raw wire values kept.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stated {
    /// The priority, `None` when the rule read it as unstated.
    pub priority: Option<u8>,
    /// The confidence, `None` when the rule read it as unstated.
    pub confidence: Option<f32>,
    /// The priority on the wire.
    pub wire_priority: u8,
    /// The confidence on the wire.
    pub wire_confidence: f32,
}

impl Stated {
    /// Applies `rule` to the wire values.
    pub fn read(wire_priority: u8, wire_confidence: f32, rule: DefaultsRule) -> Stated {
        let ros = rule == DefaultsRule::Ros;
        Stated {
            priority: (!(ros && wire_priority == 0)).then_some(wire_priority),
            // `== 0.0` is true for -0.0 too: both are "no confidence".
            confidence: (!(ros && wire_confidence == 0.0)).then_some(wire_confidence),
            wire_priority,
            wire_confidence,
        }
    }

    /// Whether the rule changed anything (to report it).
    pub fn defaulted(&self) -> bool {
        self.priority_defaulted() || self.confidence_defaulted()
    }

    /// Whether the priority was read as unstated.
    pub fn priority_defaulted(&self) -> bool {
        self.priority.is_none()
    }

    /// Whether the confidence was read as unstated.
    pub fn confidence_defaulted(&self) -> bool {
        self.confidence.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        let digits: Vec<u8> = s.bytes().filter(u8::is_ascii_hexdigit).collect();
        digits
            .chunks(2)
            .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
            .collect()
    }

    /// The spec's byte-by-byte example (ros2-over-zenoh.md 2.5), row by row.
    fn spec_example() -> Vec<u8> {
        hex(concat!(
            "00 01 00 00",
            "0f 00 00 00",
            "5f 5f 69 6e 74 65 6e 74 5f 73 61 79 5f 5f 00",
            "00",
            "10 00 00 00",
            "7b 22 6f 62 6a 65 63 74 22 3a 22 68 69 22 7d 00",
            "0b 00 00 00",
            "5f 5f 6d 79 73 65 6c 66 5f 5f 00",
            "00",
            "14 00 00 00",
            "5f 5f 6d 6f 64 61 6c 69 74 79 5f 73 70 65 65 63 68 5f 5f 00",
            "80",
            "00 00 00",
            "00 00 80 3f",
        ))
    }

    fn say() -> IntentView<'static> {
        IntentView {
            intent: "__intent_say__",
            data: r#"{"object":"hi"}"#,
            source: "__myself__",
            modality: "__modality_speech__",
            priority: 128,
            confidence: 1.0,
        }
    }

    #[test]
    fn the_spec_example_decodes_and_encodes_byte_for_byte() {
        let bytes = spec_example();
        assert_eq!(bytes.len(), 92);
        assert_eq!(IntentView::decode(&bytes), Ok(say()));
        assert_eq!(say().encode().unwrap(), bytes);
        assert_eq!(say().encoded_len(), 92);
        assert_eq!(Intent::decode(&bytes).unwrap().view(), say());
        // The offsets of the spec's table.
        assert_eq!(bytes[0x17], 0, "pad after `intent`");
        assert_eq!(&bytes[0x18..0x1c], &[0x10, 0, 0, 0]);
        assert_eq!(&bytes[0x2c..0x30], &[0x0b, 0, 0, 0]);
        assert_eq!(&bytes[0x3c..0x40], &[0x14, 0, 0, 0]);
        assert_eq!(bytes[0x54], 0x80);
        assert_eq!(&bytes[0x58..], &[0, 0, 0x80, 0x3f]);
        let mut ninety = say();
        ninety.confidence = 0.9;
        assert_eq!(&ninety.encode().unwrap()[0x58..], &hex("66 66 66 3f")[..]);
    }

    #[test]
    fn a_message_left_at_its_defaults_is_40_bytes() {
        let bytes = IntentView::default().encode().unwrap();
        let empty = "01 00 00 00 00 00 00 00";
        let expected = hex(&format!(
            "00 01 00 00 {empty} {empty} {empty} 01 00 00 00 00 00 00 00 00 00 00 00"
        ));
        assert_eq!(bytes, expected);
        assert_eq!(bytes.len(), 40);
        assert_eq!(IntentView::default().encoded_len(), 40);
        assert_eq!(IntentView::decode(&bytes), Ok(IntentView::default()));
    }

    #[test]
    fn every_error_names_the_field() {
        let bytes = spec_example();
        // Cut anywhere: an error (never a panic), naming the field being read there.
        for cut in 0..bytes.len() - 3 {
            let e = IntentView::decode(&bytes[..cut]).unwrap_err();
            let field = match e {
                CdrError::NoHeader { .. } => continue,
                CdrError::Truncated { field, .. } | CdrError::LengthPastEnd { field, .. } => field,
                other => panic!("cut at {cut}: {other}"),
            };
            assert!(FIELDS.contains(&field), "{field}");
        }
        // 89..92: `confidence` is cut short.
        assert!(matches!(
            IntentView::decode(&bytes[..90]),
            Err(CdrError::Truncated {
                field: "confidence",
                offset: 0x58,
                need: 4,
                have: 2
            })
        ));
        let mut no_nul = bytes.clone();
        no_nul[0x16] = b'!';
        assert!(matches!(
            IntentView::decode(&no_nul),
            Err(CdrError::MissingNul {
                field: "intent",
                ..
            })
        ));
        let mut long = bytes.clone();
        long[0x2c] = 0xF0; // `source` claims 240 bytes
        assert!(matches!(
            IntentView::decode(&long),
            Err(CdrError::LengthPastEnd {
                field: "source",
                length: 240,
                ..
            })
        ));
        let mut more = bytes.clone();
        more.extend_from_slice(&[0; 3]);
        assert_eq!(IntentView::decode(&more), Ok(say()), "3 bytes of padding");
        more.push(0);
        assert!(matches!(
            IntentView::decode(&more),
            Err(CdrError::TrailingBytes { count: 4, .. })
        ));
    }

    #[test]
    fn nan_and_out_of_range_confidences_decode_as_sent() {
        for c in [f32::NAN, -1.0, 2.5, f32::INFINITY] {
            let mut v = say();
            v.confidence = c;
            let bytes = v.encode().unwrap();
            let back = IntentView::decode(&bytes).unwrap();
            assert_eq!(back.confidence.to_bits(), c.to_bits());
        }
    }

    #[test]
    fn a_nul_inside_a_string_cannot_be_encoded() {
        let mut v = say();
        v.data = "{\"a\":\"\0\"}";
        let mut out = vec![1, 2, 3];
        assert_eq!(
            v.encode_into(&mut out),
            Err(CdrError::NulInString {
                field: "data",
                at: 6
            })
        );
        assert_eq!(out, [1, 2, 3], "nothing appended");
    }

    /// rosidl's type description in the JSON form RIHS01 hashes (`json.dumps` with `", "` and
    /// `": "` separators, `default_value` removed): `(name, type_id, nested type)` per field.
    fn description(type_name: &str, fields: &[(&str, u8, &str)]) -> String {
        let fields: Vec<String> = fields
            .iter()
            .map(|(name, id, nested)| {
                format!(
                    r#"{{"name": "{name}", "type": {{"type_id": {id}, "capacity": 0, "string_capacity": 0, "nested_type_name": "{nested}"}}}}"#
                )
            })
            .collect();
        format!(
            r#"{{"type_name": "{type_name}", "fields": [{}]}}"#,
            fields.join(", ")
        )
    }

    fn rihs01(main: &str, referenced: &[String]) -> String {
        use sha2::Digest;
        let text = format!(
            r#"{{"type_description": {main}, "referenced_type_descriptions": [{}]}}"#,
            referenced.join(", ")
        );
        let digest = sha2::Sha256::digest(text.as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        format!("RIHS01_{hex}")
    }

    const STRING: u8 = 17;
    const UINT8: u8 = 3;
    const FLOAT32: u8 = 10;
    const NESTED_UNBOUNDED_SEQUENCE: u8 = 145;

    fn intent_fields(first: &'static str) -> Vec<(&'static str, u8, &'static str)> {
        vec![
            (first, STRING, ""),
            ("data", STRING, ""),
            ("source", STRING, ""),
            ("modality", STRING, ""),
            ("priority", UINT8, ""),
            ("confidence", FLOAT32, ""),
        ]
    }

    #[test]
    fn the_type_hash_is_the_sha256_of_the_type_description() {
        let intent = description(ROS_TYPE, &intent_fields("intent"));
        let text =
            format!(r#"{{"type_description": {intent}, "referenced_type_descriptions": []}}"#);
        assert_eq!(text, TYPE_DESCRIPTION);
        assert_eq!(rihs01(&intent, &[]), TYPE_HASH);
        let names: Vec<&str> = intent_fields("intent").iter().map(|f| f.0).collect();
        assert_eq!(names, FIELDS);
        // The spec's other values: the ROS 1-era 0.3.0 layout (first field `action`), and
        // `IntentsList` (a nested sequence, with Intent as a referenced type).
        assert_eq!(
            rihs01(&description(ROS_TYPE, &intent_fields("action")), &[]),
            "RIHS01_18e9aa294364ac20676451ce12bb15945a6d848f49e4ff118a98597f5589e49b"
        );
        let list = description(
            "hri_actions_msgs/msg/IntentsList",
            &[("intents", NESTED_UNBOUNDED_SEQUENCE, ROS_TYPE)],
        );
        assert_eq!(
            rihs01(&list, &[intent]),
            "RIHS01_cce5257b2dab46c5707f2b7367d9b33609f2f7821ec4416bba157a80a2a250d5"
        );
    }

    #[test]
    fn the_ros_defaults_rule() {
        let ros = Stated::read(0, 0.0, DefaultsRule::Ros);
        assert_eq!((ros.priority, ros.confidence), (None, None));
        assert!(ros.priority_defaulted() && ros.confidence_defaulted());
        assert_eq!((ros.wire_priority, ros.wire_confidence), (0, 0.0));
        assert!(Stated::read(0, -0.0, DefaultsRule::Ros)
            .confidence
            .is_none());
        let set = Stated::read(1, 0.01, DefaultsRule::Ros);
        assert_eq!((set.priority, set.confidence), (Some(1), Some(0.01)));
        assert!(!set.defaulted());
        let literal = Stated::read(0, 0.0, DefaultsRule::Literal);
        assert_eq!((literal.priority, literal.confidence), (Some(0), Some(0.0)));
        assert!(!literal.defaulted());
        let nan = Stated::read(128, f32::NAN, DefaultsRule::Ros);
        assert!(nan.confidence.unwrap().is_nan(), "NaN is not 0.0: kept");
    }
}
