//! The attachment rmw_zenoh puts on every publication: who published (the publisher's GID),
//! its sequence number and its clock.
//!
//! Current releases (Humble 0.1.2+, Jazzy 0.2.4+, Kilted and Rolling 0.6.0+) write
//! `(int64 sequence_number, int64 source_timestamp, uint8[16] gid)` with Zenoh's
//! serialization format, which is always these 33 bytes:
//!
//! | offset | size | content |
//! |---|---|---|
//! | 0 | 8 | sequence number, i64 LE: 1 for a publisher's first message, +1 per publish |
//! | 8 | 8 | source time, i64 LE, ns since the Unix epoch (the publisher's wall clock) |
//! | 16 | 1 | `0x10`: the GID's length (LEB128 of 16) |
//! | 17 | 16 | the publisher's GID |
//!
//! Earlier releases wrote a keyed layout (77 bytes: each value preceded by its name); it is
//! recognised and reported ([`AttachmentError::LegacyLayout`]), not read.

use std::fmt;

/// The attachment's length.
pub const LEN: usize = 33;

/// The length of the keyed layout of releases before mid-2025 (with a 16-byte GID).
pub const LEGACY_LEN: usize = 77;

/// A publisher's (or subscription's) global id: 16 bytes.
///
/// rmw_zenoh derives it from the entity's liveliness token ([`Gid::of_token`]), so every
/// node of the graph computes the same GID for an entity from its token alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Gid(pub [u8; 16]);

impl Gid {
    /// The GID rmw_zenoh gives the entity whose liveliness token is `token`: XXH3-128
    /// (seed 0) of the token's text, as the 128-bit value's little-endian bytes.
    pub fn of_token(token: &str) -> Gid {
        Gid(xxhash_rust::xxh3::xxh3_128(token.as_bytes()).to_le_bytes())
    }

    /// The first 8 hex digits (for one-line reports).
    pub fn short(&self) -> String {
        self.0[..4].iter().map(|b| format!("{b:02x}")).collect()
    }
}

impl fmt::Display for Gid {
    /// 32 lowercase hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

/// The metadata of one publication.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Attachment {
    /// The publisher's sequence number (1, 2, 3, ...).
    pub sequence: i64,
    /// When it was published: ns since the Unix epoch on the publisher's wall clock (for
    /// diagnostics; a receiver uses its own arrival time).
    pub source_time_ns: i64,
    /// The publisher's GID.
    pub gid: Gid,
}

/// Why an attachment is not the 33-byte rmw_zenoh layout.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AttachmentError {
    /// The sample has no attachment (rmw_zenoh itself drops such a sample).
    #[error("no rmw_zenoh attachment (sequence number, source time, GID)")]
    Missing,
    /// The keyed layout of rmw_zenoh releases before mid-2025: that publisher cannot talk to
    /// current ROS 2 nodes either.
    #[error(
        "{len}-byte keyed attachment of rmw_zenoh releases before mid-2025 (current: 33 bytes)"
    )]
    LegacyLayout {
        /// Its length.
        len: usize,
    },
    /// Another length.
    #[error("{len}-byte attachment: rmw_zenoh's is 33 bytes (sequence number, source time, GID)")]
    Length {
        /// Its length.
        len: usize,
    },
    /// The GID's length byte is not 16.
    #[error("attachment byte 16 is {found:#04x}: the GID length must be 0x10 (16 bytes)")]
    GidLength {
        /// The byte found.
        found: u8,
    },
}

impl AttachmentError {
    /// A short stable name of the kind, for logs and counters.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Missing => "attachment_missing",
            Self::LegacyLayout { .. } => "attachment_legacy",
            Self::Length { .. } => "attachment_length",
            Self::GidLength { .. } => "attachment_gid_length",
        }
    }
}

impl Attachment {
    /// The 33 bytes.
    pub fn encode(&self) -> [u8; LEN] {
        let mut out = [0u8; LEN];
        out[..8].copy_from_slice(&self.sequence.to_le_bytes());
        out[8..16].copy_from_slice(&self.source_time_ns.to_le_bytes());
        out[16] = 16;
        out[17..].copy_from_slice(&self.gid.0);
        out
    }

    /// A 64-bit id of the message: XXH3-64 of the GID and the sequence number, which
    /// together identify one publication in the whole graph (a restarted publisher has a new
    /// GID). For de-duplication keys and reports.
    pub fn message_id(&self) -> u64 {
        let mut key = [0u8; 24];
        key[..16].copy_from_slice(&self.gid.0);
        key[16..].copy_from_slice(&self.sequence.to_le_bytes());
        xxhash_rust::xxh3::xxh3_64(&key)
    }

    /// Reads the 33 bytes (`None`: the sample had no attachment).
    pub fn decode(bytes: Option<&[u8]>) -> Result<Attachment, AttachmentError> {
        let bytes = bytes.ok_or(AttachmentError::Missing)?;
        let Ok(fixed) = <&[u8; LEN]>::try_from(bytes) else {
            return Err(if is_legacy(bytes) {
                AttachmentError::LegacyLayout { len: bytes.len() }
            } else {
                AttachmentError::Length { len: bytes.len() }
            });
        };
        if fixed[16] != 16 {
            return Err(AttachmentError::GidLength { found: fixed[16] });
        }
        let i64_at = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&fixed[at..at + 8]);
            i64::from_le_bytes(b)
        };
        let mut gid = [0u8; 16];
        gid.copy_from_slice(&fixed[17..]);
        Ok(Attachment {
            sequence: i64_at(0),
            source_time_ns: i64_at(8),
            gid: Gid(gid),
        })
    }
}

/// The keyed layout starts with the serialized string `sequence_number` (LEB128 15).
fn is_legacy(bytes: &[u8]) -> bool {
    bytes.len() >= 16 && bytes[0] == 15 && &bytes[1..16] == b"sequence_number"
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

    const HASH: &str = "RIHS01_850d5c0a06aecf153f4cbc75f27fc655d687f93300bcc928a9d21712716fcfaa";

    #[test]
    fn gids_are_xxh3_128_of_the_token_as_in_the_spec() {
        let cases = [
            (
                format!("@ros2_lv/0/a1b2c3d4e5f60718293a4b5c6d7e8f90/0/1/MP/%/%/intent_tester/%intents/hri_actions_msgs::msg::dds_::Intent_/{HASH}/::,10:,:,:,,"),
                "75 d6 50 0f 1f 75 76 42 c5 8b dc 1b 29 2c 0c 88",
            ),
            (
                format!("@ros2_lv/0/5f1e2d3c4b5a69788796a5b4c3d2e1f0/0/1/MS/%/%/robot/%intents/hri_actions_msgs::msg::dds_::Intent_/{HASH}/::,10:,:,:,,"),
                "bc ea 47 b8 fb ee df bf c6 12 74 58 b4 61 0a fa",
            ),
            (
                "@ros2_lv/0/5f1e2d3c4b5a69788796a5b4c3d2e1f0/0/0/NN/%/%/robot".to_owned(),
                "40 1a 81 8d 71 ee cb ca 37 da 12 f2 f0 18 96 38",
            ),
        ];
        for (token, gid) in cases {
            assert_eq!(Gid::of_token(&token).0.to_vec(), hex(gid), "{token}");
        }
    }

    #[test]
    fn the_spec_example_attachment() {
        let bytes = hex(concat!(
            "01 00 00 00 00 00 00 00  00 00 fa ed 51 72 86 18  10",
            "75 d6 50 0f 1f 75 76 42 c5 8b dc 1b 29 2c 0c 88"
        ));
        let a = Attachment::decode(Some(&bytes)).unwrap();
        assert_eq!(a.sequence, 1);
        assert_eq!(a.source_time_ns, 1_767_225_600_000_000_000);
        assert_eq!(a.gid.to_string(), "75d6500f1f757642c58bdc1b292c0c88");
        assert_eq!(a.gid.short(), "75d6500f");
        assert_eq!(a.encode().to_vec(), bytes);
        let next = Attachment { sequence: 2, ..a };
        assert_ne!(a.message_id(), next.message_id());
        assert_eq!(
            a.message_id(),
            Attachment {
                source_time_ns: 0,
                ..a
            }
            .message_id()
        );
    }

    #[test]
    fn anything_else_is_a_typed_error() {
        assert_eq!(Attachment::decode(None), Err(AttachmentError::Missing));
        for len in [0, 1, 32, 34, 200] {
            assert_eq!(
                Attachment::decode(Some(&vec![0x10; len])),
                Err(AttachmentError::Length { len })
            );
        }
        let mut legacy = vec![15u8];
        legacy.extend_from_slice(b"sequence_number");
        legacy.resize(LEGACY_LEN, 0);
        assert_eq!(
            Attachment::decode(Some(&legacy)),
            Err(AttachmentError::LegacyLayout { len: 77 })
        );
        let mut bad = [0u8; LEN];
        bad[16] = 24; // Humble's rmw GID size, never on the wire
        assert_eq!(
            Attachment::decode(Some(&bad)),
            Err(AttachmentError::GidLength { found: 24 })
        );
    }
}
