//! CDR as rmw_zenoh puts ROS 2 messages on the wire: OMG plain CDR (XCDR1), little-endian,
//! behind a 4-byte encapsulation header (what Fast-CDR writes in `DDS_CDR` mode).
//!
//! | bytes | content |
//! |---|---|
//! | 0..2 | representation id: `00 01` little-endian CDR (`00 00` is big-endian, refused) |
//! | 2..4 | options: `00 00` (the low two bits of byte 3 count trailing padding bytes) |
//! | 4.. | the body: each primitive of size n is aligned to n **relative to byte 4**, padding zero |
//!
//! A `string` is a `u32` length counting the terminating NUL, the bytes, then the NUL.
//!
//! [`CdrReader`] borrows from the payload (a string is a `&str` into it: nothing is allocated,
//! whatever a length prefix claims) and never panics: every problem is a [`CdrError`] naming
//! the field and the byte offset. It is stricter than Fast-CDR where Fast-CDR would hand a
//! ROS node something no conforming publisher sends (a string without its NUL, a NUL inside a
//! string, bytes that are not UTF-8, more than 3 bytes after the last field), and as lenient
//! where conforming writers differ (a zero string length reads as empty; padding bytes are
//! not checked). [`CdrWriter`] writes exactly what Fast-CDR writes.

use std::fmt;

/// The encapsulation header of a little-endian plain-CDR payload (representation `00 01`,
/// options `00 00`).
pub const HEADER_LE: [u8; 4] = [0x00, 0x01, 0x00, 0x00];

/// Where the body starts: alignment is counted from here.
const BODY: usize = 4;

/// Why a payload does not decode as CDR (or a value cannot be encoded).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CdrError {
    /// Fewer than 4 bytes: not even the encapsulation header.
    #[error("{len}-byte payload: shorter than the 4-byte CDR encapsulation header")]
    NoHeader {
        /// The payload's length.
        len: usize,
    },
    /// The header says big-endian plain CDR (`00 00`); rmw_zenoh writes the host's byte order,
    /// little-endian on every tier-1 platform.
    #[error(
        "encapsulation `00 00` is big-endian CDR; ROS 2 (rmw_zenoh) writes little-endian `00 01`"
    )]
    BigEndian,
    /// Another representation (parameter lists, XCDR2, garbage): ROS 2 messages are plain CDR.
    #[error("encapsulation `{:02x} {:02x}` is {}, not plain CDR (`00 01`)", id[0], id[1], representation_name(*id))]
    Representation {
        /// The first two header bytes.
        id: [u8; 2],
    },
    /// A value needs more bytes than are left.
    #[error("`{field}` at byte {offset}: needs {need} bytes, {have} left")]
    Truncated {
        /// The field being read.
        field: &'static str,
        /// Where the value starts (after alignment).
        offset: usize,
        /// Bytes the value needs.
        need: usize,
        /// Bytes left.
        have: usize,
    },
    /// A string's length prefix runs past the end of the payload.
    #[error("string `{field}` at byte {offset}: its length {length} runs past the end ({have} bytes left)")]
    LengthPastEnd {
        /// The field.
        field: &'static str,
        /// Where the string's bytes start.
        offset: usize,
        /// The length prefix.
        length: u32,
        /// Bytes left after the prefix.
        have: usize,
    },
    /// A string's last byte is not the terminating NUL.
    #[error(
        "string `{field}` at byte {offset}: its last byte is {last:#04x}, not the terminating NUL"
    )]
    MissingNul {
        /// The field.
        field: &'static str,
        /// Where the string's bytes start.
        offset: usize,
        /// The byte found instead.
        last: u8,
    },
    /// A NUL inside a string (Fast-CDR refuses to write one; a C++ subscriber would cut the
    /// string there).
    #[error("string `{field}`: NUL byte inside the string at byte {at}")]
    NulInString {
        /// The field.
        field: &'static str,
        /// The NUL's offset (in the payload when decoding, in the string when encoding).
        at: usize,
    },
    /// A string is not UTF-8 (a ROS `string` declares no encoding; in practice it is UTF-8).
    #[error("string `{field}` at byte {offset} is not UTF-8 (valid up to its byte {valid_up_to})")]
    InvalidUtf8 {
        /// The field.
        field: &'static str,
        /// Where the string's bytes start.
        offset: usize,
        /// Length of its valid UTF-8 prefix.
        valid_up_to: usize,
    },
    /// More than 3 bytes follow the last field (Fast-CDR ignores them; a conforming writer
    /// never sends them).
    #[error("{count} unexpected bytes after the last field (at byte {offset})")]
    TrailingBytes {
        /// Where they start.
        offset: usize,
        /// How many.
        count: usize,
    },
    /// A string too long for a CDR length prefix.
    #[error("string `{field}` of {len} bytes is too long for CDR")]
    StringTooLong {
        /// The field.
        field: &'static str,
        /// Its length.
        len: usize,
    },
}

impl CdrError {
    /// A short stable name of the kind, for logs and counters.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::NoHeader { .. } => "no_header",
            Self::BigEndian => "big_endian",
            Self::Representation { .. } => "representation",
            Self::Truncated { .. } => "truncated",
            Self::LengthPastEnd { .. } => "length_past_end",
            Self::MissingNul { .. } => "missing_nul",
            Self::NulInString { .. } => "nul_in_string",
            Self::InvalidUtf8 { .. } => "invalid_utf8",
            Self::TrailingBytes { .. } => "trailing_bytes",
            Self::StringTooLong { .. } => "string_too_long",
        }
    }
}

fn representation_name(id: [u8; 2]) -> &'static str {
    match id {
        [0, 2] | [0, 3] => "parameter-list CDR (PL_CDR)",
        [0, 6..=0x0b] => "XCDR2",
        [0, _] => "an unknown representation",
        _ => "not a CDR representation id",
    }
}

/// Reads one CDR payload, field by field, borrowing from it.
#[derive(Clone)]
pub struct CdrReader<'a> {
    buf: &'a [u8],
    pos: usize,
    end: usize,
}

impl fmt::Debug for CdrReader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CdrReader")
            .field("pos", &self.pos)
            .field("end", &self.end)
            .finish()
    }
}

impl<'a> CdrReader<'a> {
    /// Checks the encapsulation header and positions the reader at the body.
    pub fn new(payload: &'a [u8]) -> Result<Self, CdrError> {
        let Some(header) = payload.first_chunk::<4>() else {
            return Err(CdrError::NoHeader { len: payload.len() });
        };
        match [header[0], header[1]] {
            [0, 1] => {}
            [0, 0] => return Err(CdrError::BigEndian),
            id => return Err(CdrError::Representation { id }),
        }
        // Fast-CDR: the low two bits of the options' second byte count padding bytes at the
        // end of the payload, which are not part of the message.
        let padding = usize::from(header[3] & 0b11);
        let end = payload.len().saturating_sub(padding).max(BODY);
        Ok(Self {
            buf: payload,
            pos: BODY,
            end,
        })
    }

    /// The offset of the next byte to read.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left (before alignment).
    pub fn remaining(&self) -> usize {
        self.end - self.pos
    }

    /// The offset a value of `size` bytes starts at: aligned to `size` from the body start.
    fn aligned(&self, size: usize) -> usize {
        let rel = self.pos - BODY;
        BODY + rel.next_multiple_of(size)
    }

    fn take<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], CdrError> {
        let at = self.aligned(N);
        let bytes = self
            .buf
            .get(at..self.end)
            .and_then(|rest| rest.first_chunk::<N>())
            .ok_or(CdrError::Truncated {
                field,
                offset: at,
                need: N,
                have: self.end.saturating_sub(at),
            })?;
        self.pos = at + N;
        Ok(*bytes)
    }

    /// A `uint8` (or `byte`, `char`, `bool` as its byte).
    pub fn read_u8(&mut self, field: &'static str) -> Result<u8, CdrError> {
        self.take::<1>(field).map(|[b]| b)
    }

    /// A `uint32`.
    pub fn read_u32(&mut self, field: &'static str) -> Result<u32, CdrError> {
        self.take::<4>(field).map(u32::from_le_bytes)
    }

    /// An `int32`.
    pub fn read_i32(&mut self, field: &'static str) -> Result<i32, CdrError> {
        self.take::<4>(field).map(i32::from_le_bytes)
    }

    /// A `float32` (any bit pattern, NaN included: judging the value is the caller's job).
    pub fn read_f32(&mut self, field: &'static str) -> Result<f32, CdrError> {
        self.take::<4>(field).map(f32::from_le_bytes)
    }

    /// A `float64`.
    pub fn read_f64(&mut self, field: &'static str) -> Result<f64, CdrError> {
        self.take::<8>(field).map(f64::from_le_bytes)
    }

    /// A `string`, borrowed from the payload (the NUL is not part of it). A zero length
    /// reads as the empty string, as Fast-CDR reads it.
    pub fn read_string(&mut self, field: &'static str) -> Result<&'a str, CdrError> {
        let length = self.read_u32(field)?;
        let start = self.pos;
        let have = self.end - start;
        if length == 0 {
            return Ok("");
        }
        let Some(bytes) = usize::try_from(length)
            .ok()
            .filter(|n| *n <= have)
            .map(|n| &self.buf[start..start + n])
        else {
            return Err(CdrError::LengthPastEnd {
                field,
                offset: start,
                length,
                have,
            });
        };
        let (last, text) = bytes.split_last().expect("length >= 1");
        if *last != 0 {
            return Err(CdrError::MissingNul {
                field,
                offset: start,
                last: *last,
            });
        }
        // `contains` on bytes searches a word at a time; the position only for the error.
        if text.contains(&0) {
            let i = text.iter().position(|b| *b == 0).unwrap_or_default();
            return Err(CdrError::NulInString {
                field,
                at: start + i,
            });
        }
        let text = std::str::from_utf8(text).map_err(|e| CdrError::InvalidUtf8 {
            field,
            offset: start,
            valid_up_to: e.valid_up_to(),
        })?;
        self.pos = start + bytes.len();
        Ok(text)
    }

    /// Ends the message: up to 3 bytes may follow the last field (padding to a multiple of
    /// 4, which some writers add); more is an error.
    pub fn finish(self) -> Result<(), CdrError> {
        match self.end - self.pos {
            0..=3 => Ok(()),
            count => Err(CdrError::TrailingBytes {
                offset: self.pos,
                count,
            }),
        }
    }
}

/// Writes one CDR payload (little-endian, header first), field by field.
#[derive(Debug)]
pub struct CdrWriter<'b> {
    buf: &'b mut Vec<u8>,
    start: usize,
}

impl<'b> CdrWriter<'b> {
    /// Appends the encapsulation header to `buf`; the fields follow. What was in `buf`
    /// before stays (alignment counts from the header written here).
    pub fn new(buf: &'b mut Vec<u8>) -> Self {
        let start = buf.len();
        buf.extend_from_slice(&HEADER_LE);
        Self { buf, start }
    }

    fn pad_to(&mut self, size: usize) {
        let rel = self.buf.len() - self.start - BODY;
        let pad = rel.next_multiple_of(size) - rel;
        self.buf.resize(self.buf.len() + pad, 0);
    }

    /// A `uint8`.
    pub fn write_u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    /// A `uint32`.
    pub fn write_u32(&mut self, v: u32) {
        self.pad_to(4);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// An `int32`.
    pub fn write_i32(&mut self, v: i32) {
        self.pad_to(4);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A `float32`.
    pub fn write_f32(&mut self, v: f32) {
        self.pad_to(4);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A `float64`.
    pub fn write_f64(&mut self, v: f64) {
        self.pad_to(8);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A `string`. Refuses one with a NUL inside (as Fast-CDR does) or too long for the
    /// length prefix; nothing is written then.
    pub fn write_string(&mut self, field: &'static str, s: &str) -> Result<(), CdrError> {
        if let Some(at) = s.bytes().position(|b| b == 0) {
            return Err(CdrError::NulInString { field, at });
        }
        let length = u32::try_from(s.len() + 1).map_err(|_| CdrError::StringTooLong {
            field,
            len: s.len(),
        })?;
        self.write_u32(length);
        self.buf.extend_from_slice(s.as_bytes());
        self.buf.push(0);
        Ok(())
    }

    /// The payload's length so far (header included).
    pub fn len(&self) -> usize {
        self.buf.len() - self.start
    }

    /// Whether nothing but the header was written (never true: the header is always there).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The encoded size of a string field starting at body offset `rel` (alignment included):
/// for computing a payload's length before writing it.
pub(crate) fn string_size(rel: usize, s: &str) -> usize {
    (rel.next_multiple_of(4) - rel) + 4 + s.len() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment_counts_from_the_body_start() {
        let mut buf = vec![0xEE; 3]; // unrelated bytes before the payload
        let mut w = CdrWriter::new(&mut buf);
        w.write_u8(7);
        w.write_u32(0x0102_0304);
        w.write_u8(1);
        w.write_f64(1.5);
        let payload = buf[3..].to_vec();
        assert_eq!(&payload[..4], &HEADER_LE);
        // u8 at body 0, pad 3, u32 at body 4, u8 at body 8, pad 7, f64 at body 16.
        assert_eq!(payload.len(), 4 + 24);
        assert_eq!(&payload[4..12], &[7, 0, 0, 0, 4, 3, 2, 1]);
        let mut r = CdrReader::new(&payload).unwrap();
        assert_eq!(r.read_u8("a").unwrap(), 7);
        assert_eq!(r.read_u32("b").unwrap(), 0x0102_0304);
        assert_eq!(r.read_u8("c").unwrap(), 1);
        assert_eq!(r.read_f64("d").unwrap(), 1.5);
        r.finish().unwrap();
    }

    #[test]
    fn headers_other_than_little_endian_plain_cdr_are_refused() {
        assert_eq!(
            CdrReader::new(&[0, 1]).unwrap_err(),
            CdrError::NoHeader { len: 2 }
        );
        assert_eq!(
            CdrReader::new(&[0, 0, 0, 0, 0]).unwrap_err(),
            CdrError::BigEndian
        );
        for (id, name) in [
            ([0, 3], "PL_CDR"),
            ([0, 7], "XCDR2"),
            ([0, 0x20], "unknown"),
            ([0x7b, 0x22], "not a CDR"),
        ] {
            let e = CdrReader::new(&[id[0], id[1], 0, 0]).unwrap_err();
            assert_eq!(e, CdrError::Representation { id });
            assert!(e.to_string().contains(name), "{e}");
        }
    }

    #[test]
    fn option_padding_bits_shorten_the_payload() {
        // One u8, then 3 bytes the options declare as padding.
        let p = [0, 1, 0, 3, 9, 0, 0, 0];
        let mut r = CdrReader::new(&p).unwrap();
        assert_eq!(r.read_u8("x").unwrap(), 9);
        assert_eq!(r.remaining(), 0);
        r.finish().unwrap();
        // More padding than payload: nothing left, never an underflow.
        let mut r = CdrReader::new(&[0, 1, 0, 3]).unwrap();
        assert!(matches!(r.read_u8("x"), Err(CdrError::Truncated { .. })));
    }

    #[test]
    fn strings_are_checked_for_their_nul_utf8_and_length() {
        let p = |body: &[u8]| [&HEADER_LE[..], body].concat();
        fn read(bytes: &[u8]) -> Result<&str, CdrError> {
            CdrReader::new(bytes).unwrap().read_string("s")
        }
        assert_eq!(read(&p(&[3, 0, 0, 0, b'h', b'i', 0])), Ok("hi"));
        assert_eq!(read(&p(&[0, 0, 0, 0])), Ok(""));
        assert_eq!(read(&p(&[1, 0, 0, 0, 0])), Ok(""));
        assert_eq!(
            read(&p(&[3, 0, 0, 0, b'h', b'i', b'!'])),
            Err(CdrError::MissingNul {
                field: "s",
                offset: 8,
                last: b'!'
            })
        );
        assert_eq!(
            read(&p(&[4, 0, 0, 0, b'h', 0, b'i', 0])),
            Err(CdrError::NulInString { field: "s", at: 9 })
        );
        assert_eq!(
            read(&p(&[3, 0, 0, 0, 0xff, 0xfe, 0])),
            Err(CdrError::InvalidUtf8 {
                field: "s",
                offset: 8,
                valid_up_to: 0
            })
        );
        assert_eq!(
            read(&p(&[0xff, 0xff, 0xff, 0xff, b'x', 0])),
            Err(CdrError::LengthPastEnd {
                field: "s",
                offset: 8,
                length: u32::MAX,
                have: 2
            })
        );
        assert_eq!(
            read(&p(&[3, 0])),
            Err(CdrError::Truncated {
                field: "s",
                offset: 4,
                need: 4,
                have: 2
            })
        );
    }

    #[test]
    fn the_writer_refuses_what_fast_cdr_refuses() {
        let mut buf = Vec::new();
        let mut w = CdrWriter::new(&mut buf);
        assert_eq!(
            w.write_string("s", "a\0b"),
            Err(CdrError::NulInString { field: "s", at: 1 })
        );
        assert_eq!(w.len(), 4, "nothing written");
        w.write_string("s", "").unwrap();
        assert_eq!(&buf[4..], &[1, 0, 0, 0, 0]);
    }

    #[test]
    fn at_most_three_trailing_bytes_are_accepted() {
        let ok = [0, 1, 0, 0, 5, 0, 0, 0];
        let mut r = CdrReader::new(&ok).unwrap();
        r.read_u8("x").unwrap();
        r.finish().unwrap();
        let bad = [0, 1, 0, 0, 5, 0, 0, 0, 0];
        let mut r = CdrReader::new(&bad).unwrap();
        r.read_u8("x").unwrap();
        assert_eq!(
            r.finish(),
            Err(CdrError::TrailingBytes {
                offset: 5,
                count: 4
            })
        );
    }

    #[test]
    fn string_size_matches_the_writer() {
        for prefix in 0..8usize {
            for s in ["", "a", "abcd", "héllo"] {
                let mut buf = Vec::new();
                let mut w = CdrWriter::new(&mut buf);
                for _ in 0..prefix {
                    w.write_u8(0);
                }
                let before = w.len() - 4;
                w.write_string("s", s).unwrap();
                assert_eq!(w.len() - 4 - before, string_size(before, s), "{prefix} {s}");
            }
        }
    }
}
