//! The attachment every CLAD sample, query and reply carries: the CLAD name of the payload's
//! type and its schema hash.
//!
//! Layout (all of it; nothing follows the name):
//!
//! | bytes | content |
//! |-------|---------|
//! | 0..4  | magic `CLD2` (format 2) |
//! | 4     | flags: bit 0 set when a schema hash follows; other bits must be 0 |
//! | 5..21 | the 16-byte schema hash, zeros without one |
//! | 21..  | the fully qualified CLAD name (`CloudMic::Message`), UTF-8, 1..=255 bytes |
//!
//! The schema hash covers the type and every type it refers to (members with their names,
//! types and order, union tags, enum values, nested types transitively; see
//! `clad_codegen::schema_hash` for the canonical form): it is [`Wire::SCHEMA_HASH`], the
//! generated `SCHEMA_HASH` constant, and what `cladc describe` prints as `schema_hash`. A
//! receiver compares the name and the hash with its own type's before decoding anything, so
//! a peer built from another version of the schema, even one that differs only inside a
//! nested structure, is refused with [`ReceiveError::HashMismatch`] instead of decoding
//! garbage.
//!
//! Format 1 (`CLD1`) carried the original compiler's per-declaration version hash, which
//! misses changes inside nested types; it is refused with
//! [`AttachmentError::UnsupportedFormat`] (the sender must be rebuilt).

use std::fmt;

use clad_runtime::wire::Wire;

use crate::ReceiveError;

/// The first four bytes of every attachment.
pub const MAGIC: [u8; 4] = *b"CLD2";

/// Bytes before the name.
const FIXED: usize = 4 + 1 + 16;

/// Longest accepted name, in bytes.
pub const MAX_NAME_LEN: usize = 255;

const FLAG_HASH: u8 = 1;

/// What a sample says it carries: a CLAD type name and its schema hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeTag<'a> {
    /// The fully qualified CLAD name (`CloudMic::Message`).
    pub name: &'a str,
    /// The type's schema hash ([`Wire::SCHEMA_HASH`]); `None` for types without one
    /// (builtins, arrays).
    pub hash: Option<[u8; 16]>,
}

impl TypeTag<'static> {
    /// The tag of a generated type.
    pub const fn of<T: Wire>() -> Self {
        TypeTag {
            name: T::TYPE_NAME,
            hash: T::SCHEMA_HASH,
        }
    }
}

impl<'a> TypeTag<'a> {
    /// The attachment bytes for this tag. Fails when the name is empty or longer than
    /// [`MAX_NAME_LEN`].
    pub fn encode(&self) -> Result<Vec<u8>, AttachmentError> {
        let n = self.name.len();
        if n == 0 || n > MAX_NAME_LEN {
            return Err(AttachmentError::BadNameLength { len: n });
        }
        let mut out = Vec::with_capacity(FIXED + n);
        out.extend_from_slice(&MAGIC);
        out.push(if self.hash.is_some() { FLAG_HASH } else { 0 });
        out.extend_from_slice(&self.hash.unwrap_or([0; 16]));
        out.extend_from_slice(self.name.as_bytes());
        Ok(out)
    }

    /// Parses attachment bytes (strictly: magic, flags, hash and a non-empty UTF-8 name).
    pub fn decode(bytes: &'a [u8]) -> Result<Self, AttachmentError> {
        if bytes.len() < FIXED {
            return Err(AttachmentError::TooShort { len: bytes.len() });
        }
        let (head, name) = bytes.split_at(FIXED);
        if head[..3] == MAGIC[..3] && head[3] != MAGIC[3] && head[3].is_ascii_digit() {
            return Err(AttachmentError::UnsupportedFormat {
                format: head[3] - b'0',
            });
        }
        if head[..4] != MAGIC {
            return Err(AttachmentError::BadMagic {
                found: [head[0], head[1], head[2], head[3]],
            });
        }
        let flags = head[4];
        if flags & !FLAG_HASH != 0 {
            return Err(AttachmentError::BadFlags { flags });
        }
        if name.is_empty() || name.len() > MAX_NAME_LEN {
            return Err(AttachmentError::BadNameLength { len: name.len() });
        }
        let name = std::str::from_utf8(name).map_err(|_| AttachmentError::NameNotUtf8)?;
        let mut hash = [0; 16];
        hash.copy_from_slice(&head[5..FIXED]);
        Ok(TypeTag {
            name,
            hash: (flags & FLAG_HASH != 0).then_some(hash),
        })
    }

    /// Checks that this tag names `expected` with the same hash: the receiving side's test.
    /// `key` only goes into the error.
    pub fn check(&self, expected: &TypeTag<'static>, key: &str) -> Result<(), ReceiveError> {
        if self.name != expected.name {
            return Err(ReceiveError::WrongType {
                key: key.to_owned(),
                expected: expected.name,
                found: self.name.to_owned(),
            });
        }
        if self.hash != expected.hash {
            return Err(ReceiveError::HashMismatch {
                key: key.to_owned(),
                type_name: expected.name,
                expected: expected.hash.map(Hash),
                found: self.hash.map(Hash),
            });
        }
        Ok(())
    }
}

/// A schema hash, displayed as 32 lowercase hex digits (as `SCHEMA_HASH_STR`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Hash(pub [u8; 16]);

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl Hash {
    /// Parses 32 hex digits (the `SCHEMA_HASH_STR` form, what `cladc describe` prints).
    pub fn from_hex(s: &str) -> Option<Self> {
        let s = s.as_bytes();
        if s.len() != 32 {
            return None;
        }
        let mut out = [0; 16];
        for (i, pair) in s.chunks(2).enumerate() {
            let digits = std::str::from_utf8(pair).ok()?;
            out[i] = u8::from_str_radix(digits, 16).ok()?;
        }
        Some(Hash(out))
    }
}

/// Why an attachment is not a CLAD type tag.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AttachmentError {
    /// Shorter than the fixed part (magic, flags, hash).
    #[error("attachment of {len} bytes is too short for a CLAD type tag")]
    TooShort {
        /// Its length.
        len: usize,
    },
    /// A CLAD type tag of another format (`CLD` and another digit): `CLD1` senders were
    /// built before the schema hash and must be rebuilt.
    #[error(
        "CLAD type tag format {format} is not supported (this receiver reads format 2, \
         which carries the schema hash); rebuild the sender"
    )]
    UnsupportedFormat {
        /// The format digit found.
        format: u8,
    },
    /// Does not start with [`MAGIC`].
    #[error("attachment does not start with CLD2 (found {found:02x?})")]
    BadMagic {
        /// The first four bytes.
        found: [u8; 4],
    },
    /// Unknown flag bits.
    #[error("unknown flags {flags:#04x} in the CLAD type tag")]
    BadFlags {
        /// The flags byte.
        flags: u8,
    },
    /// The name is empty or longer than [`MAX_NAME_LEN`].
    #[error("type name of {len} bytes (1..=255 allowed)")]
    BadNameLength {
        /// Its length in bytes.
        len: usize,
    },
    /// The name is not UTF-8.
    #[error("type name is not UTF-8")]
    NameNotUtf8,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_and_without_hash() {
        for hash in [None, Some([7u8; 16])] {
            let tag = TypeTag {
                name: "CloudMic::Message",
                hash,
            };
            let bytes = tag.encode().unwrap();
            assert_eq!(TypeTag::decode(&bytes).unwrap(), tag);
        }
    }

    #[test]
    fn garbage_is_refused_with_its_reason() {
        let good = TypeTag {
            name: "A",
            hash: Some([1; 16]),
        }
        .encode()
        .unwrap();
        assert_eq!(
            TypeTag::decode(&good[..10]),
            Err(AttachmentError::TooShort { len: 10 })
        );
        let mut bad = good.clone();
        bad[0] = b'X';
        assert!(matches!(
            TypeTag::decode(&bad),
            Err(AttachmentError::BadMagic { .. })
        ));
        let mut old = good.clone();
        old[3] = b'1';
        assert_eq!(
            TypeTag::decode(&old),
            Err(AttachmentError::UnsupportedFormat { format: 1 })
        );
        let mut bad = good.clone();
        bad[4] = 0x82;
        assert_eq!(
            TypeTag::decode(&bad),
            Err(AttachmentError::BadFlags { flags: 0x82 })
        );
        assert_eq!(
            TypeTag::decode(&good[..FIXED]),
            Err(AttachmentError::BadNameLength { len: 0 })
        );
        let mut bad = good.clone();
        bad.push(0xff);
        assert_eq!(TypeTag::decode(&bad), Err(AttachmentError::NameNotUtf8));
        let long = "x".repeat(256);
        assert!(TypeTag {
            name: &long,
            hash: None
        }
        .encode()
        .is_err());
        // Every prefix and every single-byte corruption parses or fails, never panics.
        for n in 0..good.len() {
            let _ = TypeTag::decode(&good[..n]);
            for v in [0u8, 0x80, 0xff] {
                let mut b = good.clone();
                b[n] = v;
                let _ = TypeTag::decode(&b);
            }
        }
    }

    #[test]
    fn hash_hex() {
        let h = Hash([0xab; 16]);
        assert_eq!(h.to_string(), "ab".repeat(16));
        assert_eq!(Hash::from_hex(&h.to_string()), Some(h));
        assert_eq!(Hash::from_hex("zz"), None);
        assert_eq!(Hash::from_hex(&"g".repeat(32)), None);
    }

    #[test]
    fn check_reports_type_and_hash() {
        let mine = TypeTag {
            name: "A::B",
            hash: Some([1; 16]),
        };
        assert!(mine.check(&mine, "k").is_ok());
        let other = TypeTag {
            name: "A::B",
            hash: Some([2; 16]),
        };
        assert!(matches!(
            other.check(&mine, "k"),
            Err(ReceiveError::HashMismatch { .. })
        ));
        let other = TypeTag {
            name: "A::C",
            hash: Some([1; 16]),
        };
        assert!(matches!(
            other.check(&mine, "k"),
            Err(ReceiveError::WrongType { .. })
        ));
    }
}
