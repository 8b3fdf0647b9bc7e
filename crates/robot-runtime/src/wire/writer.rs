//! [`Writer`]: a bounds-checked cursor over an output buffer.

use super::error::{PackError, PackErrorKind};
use super::Wire;

/// A cursor over a caller-provided output buffer. Every write is bounds-checked and returns
/// [`PackErrorKind::BufferTooSmall`] (never panics) when the buffer is full.
///
/// [`Wire::pack`] sizes the buffer exactly with [`Wire::packed_size`] first, so there the
/// checks never fail; [`Wire::pack_into`] writes straight into the caller's buffer.
#[derive(Debug)]
pub struct Writer<'a> {
    buf_len: usize,
    rest: &'a mut [u8],
}

impl<'a> Writer<'a> {
    /// A writer at the start of `buf`.
    #[inline]
    pub fn new(buf: &'a mut [u8]) -> Self {
        Writer {
            buf_len: buf.len(),
            rest: buf,
        }
    }

    /// Bytes written so far (the offset of the next byte to write).
    #[inline]
    pub fn position(&self) -> usize {
        self.buf_len - self.rest.len()
    }

    /// Free space left in the buffer.
    #[inline]
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// Writes exactly `N` bytes. This is the primitive behind every fixed-size scalar.
    #[inline(always)]
    pub fn write_array<const N: usize>(&mut self, bytes: [u8; N]) -> Result<(), PackError> {
        if N > self.rest.len() {
            return Err(self.too_small(N));
        }
        let rest = core::mem::take(&mut self.rest);
        let (head, tail) = rest.split_at_mut(N);
        head.copy_from_slice(&bytes);
        self.rest = tail;
        Ok(())
    }

    /// Writes all of `bytes`.
    #[inline]
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<(), PackError> {
        let n = bytes.len();
        if n > self.rest.len() {
            return Err(self.too_small(n));
        }
        let rest = core::mem::take(&mut self.rest);
        let (head, tail) = rest.split_at_mut(n);
        head.copy_from_slice(bytes);
        self.rest = tail;
        Ok(())
    }

    /// Writes one value of a [`Wire`] type (same as `value.write_to(self)`).
    #[inline(always)]
    pub fn write<T: Wire>(&mut self, value: &T) -> Result<(), PackError> {
        value.write_to(self)
    }

    /// Writes a union tag byte.
    #[inline(always)]
    pub fn write_tag(&mut self, tag: u8) -> Result<(), PackError> {
        self.write_array([tag])
    }

    /// An error of `kind` at the current position.
    #[cold]
    pub fn error(&self, kind: PackErrorKind) -> PackError {
        PackError::new(kind, self.position())
    }

    #[cold]
    #[inline(never)]
    fn too_small(&self, need: usize) -> PackError {
        self.error(PackErrorKind::BufferTooSmall {
            need,
            left: self.rest.len(),
        })
    }
}
