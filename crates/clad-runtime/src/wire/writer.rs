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
        copy_bytes(head, bytes);
        self.rest = tail;
        Ok(())
    }

    /// Splits off the next `n` bytes as a writer of their own, checking the space once.
    /// This writer moves past them; the new one's positions (and error offsets) continue
    /// this writer's.
    ///
    /// Generated code writes each run of consecutive fixed-size members through one such
    /// writer: its length is a constant, so after inlining the compiler drops the
    /// per-member bounds checks. The caller must write exactly `n` bytes to it.
    #[inline(always)]
    pub fn split_off(&mut self, n: usize) -> Result<Writer<'a>, PackError> {
        if n > self.rest.len() {
            return Err(self.too_small(n));
        }
        let start = self.position();
        let rest = core::mem::take(&mut self.rest);
        let (head, tail) = rest.split_at_mut(n);
        self.rest = tail;
        Ok(Writer {
            buf_len: start + n,
            rest: head,
        })
    }

    /// Takes the next `n` bytes to be filled by the caller, checking the space once; `None`
    /// (and nothing taken) when fewer are left. The caller must fill all of them.
    #[inline(always)]
    pub(super) fn take_bytes(&mut self, n: usize) -> Option<&'a mut [u8]> {
        if n > self.rest.len() {
            return None;
        }
        let rest = core::mem::take(&mut self.rest);
        let (head, tail) = rest.split_at_mut(n);
        self.rest = tail;
        Some(head)
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

/// `dst.copy_from_slice(src)` (same lengths), with copies of up to 16 bytes (most CLAD
/// strings) done inline by at most two overlapping loads and stores instead of a call to
/// `memcpy`.
#[inline(always)]
pub(super) fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if n > 16 || dst.len() != n {
        dst.copy_from_slice(src);
    } else if n >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..].copy_from_slice(&src[n - 8..]);
    } else if n >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[n - 4..].copy_from_slice(&src[n - 4..]);
    } else if n > 0 {
        dst[0] = src[0];
        dst[n / 2] = src[n / 2];
        dst[n - 1] = src[n - 1];
    }
}
