//! Line input for the tools (`cladc encode`/`decode`, `cladz pub`): one line at a time, each
//! with its number, so that a bad line is reported with where it is and never stops the lines
//! after it.
//!
//! [`std::io::BufRead::lines`] stops at the first line that is not UTF-8 and holds a line of
//! any length in memory; [`Lines`] reports such a line ([`LineError::NotUtf8`] with the
//! column of the first bad byte, [`LineError::TooLong`] past [`MAX_LINE_BYTES`], keeping
//! none of it) and goes on with the next. Line endings `\n` and `\r\n` are removed.

use std::fmt;
use std::io::{BufRead, ErrorKind};

/// Longest line kept, in bytes (64 MiB, far above any CLAD-JSON line a person or a capture
/// writes); a longer line is reported and skipped without being held in memory.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Why a line could not be read as text.
#[derive(Debug)]
pub enum LineError {
    /// The line is not UTF-8: its first bad byte, at `column` (1-based, in bytes).
    NotUtf8 {
        /// 1-based byte column of the first byte that is not UTF-8.
        column: usize,
        /// That byte.
        byte: u8,
    },
    /// The line is longer than the limit (it was skipped).
    TooLong {
        /// The limit, in bytes.
        max: usize,
    },
    /// Reading failed; nothing more is read.
    Io(std::io::Error),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotUtf8 { column, byte } => {
                write!(f, "not UTF-8 text: byte {byte:#04x} at column {column}")
            }
            LineError::TooLong { max } => write!(f, "line longer than {max} bytes, skipped"),
            LineError::Io(e) => write!(f, "cannot read the input: {e}"),
        }
    }
}

impl std::error::Error for LineError {}

/// The lines of a reader, numbered from 1: `(number, text or why not)`.
#[derive(Debug)]
pub struct Lines<R> {
    inner: R,
    number: usize,
    max: usize,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `inner`, at most [`MAX_LINE_BYTES`] each.
    pub fn new(inner: R) -> Self {
        Self::with_max(inner, MAX_LINE_BYTES)
    }

    /// Lines of `inner`, at most `max` bytes each (line ending excluded).
    pub fn with_max(inner: R, max: usize) -> Self {
        Lines {
            inner,
            number: 0,
            max,
            buf: Vec::new(),
            done: false,
        }
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = (usize, Result<String, LineError>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.buf.clear();
        let mut too_long = false;
        let mut read_any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    self.number += 1;
                    return Some((self.number, Err(LineError::Io(e))));
                }
            };
            if chunk.is_empty() {
                break; // end of input
            }
            read_any = true;
            let (take, ends) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if !too_long {
                // `+ 2`: room for the line ending itself.
                if self.buf.len() + take > self.max.saturating_add(2) {
                    too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(&chunk[..take]);
                }
            }
            self.inner.consume(take);
            if ends {
                break;
            }
        }
        if !read_any {
            self.done = true;
            return None;
        }
        self.number += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            if self.buf.last() == Some(&b'\r') {
                self.buf.pop();
            }
        }
        if too_long || self.buf.len() > self.max {
            return Some((self.number, Err(LineError::TooLong { max: self.max })));
        }
        let bytes = std::mem::take(&mut self.buf);
        Some((
            self.number,
            String::from_utf8(bytes).map_err(|e| {
                let at = e.utf8_error().valid_up_to();
                LineError::NotUtf8 {
                    column: at + 1,
                    byte: e.as_bytes()[at],
                }
            }),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(input: &[u8], max: usize) -> Vec<(usize, Result<String, String>)> {
        Lines::with_max(std::io::BufReader::with_capacity(4, input), max)
            .map(|(n, r)| (n, r.map_err(|e| e.to_string())))
            .collect()
    }

    #[test]
    fn a_bad_line_is_reported_with_its_number_and_the_next_ones_still_come() {
        let got = collect(b"one\r\n\xffbad\ntwo\nab\xc3\n\nlast", 100);
        assert_eq!(got[0], (1, Ok("one".into())));
        assert_eq!(
            got[1],
            (2, Err("not UTF-8 text: byte 0xff at column 1".into()))
        );
        assert_eq!(got[2], (3, Ok("two".into())));
        assert_eq!(
            got[3],
            (4, Err("not UTF-8 text: byte 0xc3 at column 3".into()))
        );
        assert_eq!(got[4], (5, Ok(String::new())));
        assert_eq!(got[5], (6, Ok("last".into())));
        assert_eq!(got.len(), 6);
    }

    #[test]
    fn an_overlong_line_is_skipped_without_being_kept() {
        let mut input = b"ok\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 1000));
        input.extend(b"\nafter\n12345\n123456");
        let got = collect(&input, 5);
        assert_eq!(got[0], (1, Ok("ok".into())));
        assert_eq!(got[1].0, 2);
        assert!(got[1].1.as_ref().unwrap_err().contains("longer than 5"));
        assert_eq!(got[2], (3, Ok("after".into())));
        assert_eq!(got[3], (4, Ok("12345".into())));
        assert!(got[4].1.is_err(), "{got:?}");
        assert_eq!(got.len(), 5);
    }

    #[test]
    fn empty_input_has_no_lines() {
        assert!(collect(b"", 10).is_empty());
        assert_eq!(collect(b"\n", 10), [(1, Ok(String::new()))]);
    }

    proptest::proptest! {
        /// Any bytes: every line comes out once, numbered in order, as the text or an error.
        #[test]
        fn any_bytes_give_every_line_once(input in proptest::collection::vec(
            proptest::sample::select(vec![b'a', b'\n', b'\r', 0xff, 0xc3, 0xa9]), 0..200),
            max in 1usize..20,
        ) {
            let got = collect(&input, max);
            let expected = input.split(|&b| b == b'\n').count()
                - usize::from(input.is_empty() || input.ends_with(b"\n"));
            proptest::prop_assert_eq!(got.len(), expected);
            for (i, (n, _)) in got.iter().enumerate() {
                proptest::prop_assert_eq!(*n, i + 1);
            }
        }
    }
}
