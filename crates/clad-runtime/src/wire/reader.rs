//! [`Reader`]: a bounds-checked cursor over the input bytes.

use super::error::{UnpackError, UnpackErrorKind};
use super::Wire;

/// The CLAD union tag value that means INVALID (no member).
pub const INVALID_TAG: u8 = 0xFF;

/// A cursor over input bytes. Every read is bounds-checked and returns an
/// [`UnpackError`] (never panics) when the input is too short.
///
/// Offsets in errors are relative to the slice given to [`Reader::new`].
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    input_len: usize,
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader at the start of `input`.
    #[inline]
    pub const fn new(input: &'a [u8]) -> Self {
        Reader {
            input_len: input.len(),
            rest: input,
        }
    }

    /// Bytes consumed so far (the offset of the next byte to read).
    #[inline]
    pub fn position(&self) -> usize {
        self.input_len - self.rest.len()
    }

    /// Bytes not read yet.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// `true` when all input has been read.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The bytes not read yet.
    #[inline]
    pub fn remaining_bytes(&self) -> &'a [u8] {
        self.rest
    }

    /// Reads exactly `N` bytes. This is the primitive behind every fixed-size scalar: one
    /// length comparison and a load.
    #[inline(always)]
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N], UnpackError> {
        match self.rest.split_first_chunk::<N>() {
            Some((head, tail)) => {
                self.rest = tail;
                Ok(*head)
            }
            None => Err(self.truncated(N as u64)),
        }
    }

    /// Reads `n` bytes and returns them borrowed from the input.
    #[inline]
    pub fn read_bytes(&mut self, n: usize) -> Result<&'a [u8], UnpackError> {
        if n <= self.rest.len() {
            let (head, tail) = self.rest.split_at(n);
            self.rest = tail;
            Ok(head)
        } else {
            Err(self.truncated(n as u64))
        }
    }

    /// Splits off the next `n` bytes as a reader of their own, checking the length once.
    /// This reader moves past them; the new one's positions (and error offsets) continue
    /// this reader's.
    ///
    /// Generated code reads each run of consecutive fixed-size members through one such
    /// reader: its length is a constant, so after inlining the compiler drops the
    /// per-member bounds checks.
    #[inline(always)]
    pub fn split_off(&mut self, n: usize) -> Result<Reader<'a>, UnpackError> {
        if n > self.rest.len() {
            return Err(self.truncated(n as u64));
        }
        let start = self.position();
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(Reader {
            input_len: start + n,
            rest: head,
        })
    }

    /// Reads one value of a [`Wire`] type (same as `T::read_from(self)`).
    #[inline(always)]
    pub fn read<T: Wire>(&mut self) -> Result<T, UnpackError> {
        T::read_from(self)
    }

    /// Reads the tag byte of the union `type_name`. Rejects [`INVALID_TAG`] with
    /// [`UnpackErrorKind::InvalidTag`]; the generated `match` on the result must reject
    /// other unknown tags with [`Reader::unknown_tag`].
    #[inline]
    pub fn read_tag(&mut self, type_name: &'static str) -> Result<u8, UnpackError> {
        let [tag] = self.read_array::<1>()?;
        if tag == INVALID_TAG {
            return Err(UnpackError::new(
                UnpackErrorKind::InvalidTag { type_name },
                self.position() - 1,
            ));
        }
        Ok(tag)
    }

    /// The error for an unknown `tag` of the union `type_name`, whose tag byte was the last
    /// byte read (call it right after [`Reader::read_tag`]).
    #[cold]
    pub fn unknown_tag(&self, type_name: &'static str, tag: u8) -> UnpackError {
        UnpackError::unknown_tag(type_name, tag, self.position().saturating_sub(1))
    }

    /// An error of `kind` at the current position.
    #[cold]
    pub fn error(&self, kind: UnpackErrorKind) -> UnpackError {
        UnpackError::new(kind, self.position())
    }

    /// Succeeds when all input has been consumed; otherwise
    /// [`UnpackErrorKind::TrailingBytes`] naming the top-level `type_name`.
    #[inline]
    pub fn finish(&self, type_name: &'static str) -> Result<(), UnpackError> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(self.error(UnpackErrorKind::TrailingBytes {
                type_name,
                left: self.rest.len(),
            }))
        }
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn truncated(&self, need: u64) -> UnpackError {
        self.error(UnpackErrorKind::Truncated {
            need,
            left: self.rest.len(),
        })
    }
}
