//! The [`Wire`] trait, its implementations for the CLAD builtins and fixed arrays, and
//! [`LengthPrefix`].

use super::error::{FieldContext, PackError, PackErrorKind, UnpackError};
use super::reader::Reader;
use super::writer::Writer;

/// A type with a CLAD wire encoding. Generated messages, structures, unions and enums
/// implement it; so do the builtins (`bool`, `i8`…`i64`, `u8`…`u64`, `f32`, `f64`), fixed
/// arrays `[T; N]` of `Wire` types and `Box<T>`.
///
/// Implementors provide the three required methods and three constants; everything else is
/// provided. See the [module documentation](crate::wire) for the exact pattern generated
/// code follows.
pub trait Wire: Sized {
    /// The CLAD name of the type, used in error messages (`"uint_8"`, `"Foo"`,
    /// `"Cat::MyMessage"`).
    const TYPE_NAME: &'static str;

    /// `Some(n)` when every value encodes to exactly `n` bytes (§3.11 `is_fixed_size`).
    /// `None` otherwise. Used to skip size computations.
    const FIXED_SIZE: Option<usize>;

    /// A lower bound on the encoded size of any value (§3.11 `min_size`; `0` is always a
    /// correct but weaker bound). Unpacking uses it to reject a length prefix that
    /// announces more elements than the remaining input can hold, *before* allocating.
    const MIN_SIZE: usize;

    /// The exact number of bytes [`Wire::write_to`] writes for this value.
    fn packed_size(&self) -> usize;

    /// Appends the encoding of `self` to `w`.
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError>;

    /// Reads one value from `r`. Must leave `r` positioned after the value on success; on
    /// error the position is unspecified.
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError>;

    /// Reads one value like [`Wire::read_from`], but calls `end` on the reader after the
    /// value's last byte is read and *before* the value is assembled; an error from `end`
    /// is returned instead of the value.
    ///
    /// [`Wire::unpack`] passes its trailing-bytes check this way. Checking after
    /// `read_from` returned would have to keep the value in a temporary and copy it into
    /// the caller's slot afterwards: for a large union holding a small member, that copy
    /// costs more than the decoding. Generated messages, structures and unions implement
    /// this method (and `read_from` as `Self::read_then(r, |_| Ok(()))`); the provided
    /// implementation reads with `read_from` and then calls `end`.
    #[inline]
    fn read_then<F>(r: &mut Reader<'_>, end: F) -> Result<Self, UnpackError>
    where
        F: FnOnce(&Reader<'_>) -> Result<(), UnpackError>,
    {
        let value = Self::read_from(r)?;
        end(r)?;
        Ok(value)
    }

    /// Packs into a new `Vec` allocated once with the exact size (computed first).
    fn pack(&self) -> Result<Vec<u8>, PackError> {
        let size = self.packed_size();
        // `malloc` + fill rather than `vec![0; size]`: glibc's `calloc` bypasses its
        // thread cache and costs more than writing the zeros.
        #[allow(clippy::slow_vector_initialization)]
        let mut buf = {
            let mut buf = Vec::with_capacity(size);
            buf.resize(size, 0);
            buf
        };
        let mut w = Writer::new(&mut buf);
        self.write_to(&mut w)?;
        check_written(size, w.position())?;
        Ok(buf)
    }

    /// Appends the encoding to `out` (reserving the exact size once) and returns the number
    /// of bytes appended. On error `out` is left as it was.
    fn pack_append(&self, out: &mut Vec<u8>) -> Result<usize, PackError> {
        let size = self.packed_size();
        let start = out.len();
        out.resize(start + size, 0);
        let mut w = Writer::new(&mut out[start..]);
        let result = self
            .write_to(&mut w)
            .and_then(|()| check_written(size, w.position()));
        if let Err(e) = result {
            out.truncate(start);
            return Err(e);
        }
        Ok(size)
    }

    /// Packs into the caller's buffer without allocating and returns the number of bytes
    /// written (the encoding is `buf[..n]`). Fails with
    /// [`PackErrorKind::BufferTooSmall`] when `buf` is too small; the contents of `buf`
    /// are then unspecified.
    fn pack_into(&self, buf: &mut [u8]) -> Result<usize, PackError> {
        let mut w = Writer::new(buf);
        self.write_to(&mut w)?;
        Ok(w.position())
    }

    /// Unpacks a value that must span all of `bytes`: trailing bytes are an
    /// [`UnpackErrorKind::TrailingBytes`](super::UnpackErrorKind::TrailingBytes) error.
    fn unpack(bytes: &[u8]) -> Result<Self, UnpackError> {
        let mut r = Reader::new(bytes);
        Self::read_then(&mut r, |r| r.finish(Self::TYPE_NAME))
    }

    /// Unpacks a value from the start of `bytes` and returns it with the number of bytes it
    /// took; the rest of `bytes` is ignored (for streams and framing).
    fn unpack_prefix(bytes: &[u8]) -> Result<(Self, usize), UnpackError> {
        let mut r = Reader::new(bytes);
        let value = Self::read_from(&mut r)?;
        Ok((value, r.position()))
    }
}

#[inline]
fn check_written(expected: usize, written: usize) -> Result<(), PackError> {
    if expected == written {
        Ok(())
    } else {
        Err(PackError::new(
            PackErrorKind::SizeMismatch { expected, written },
            written,
        ))
    }
}

macro_rules! wire_number {
    ($($t:ty => $name:literal),* $(,)?) => {$(
        impl Wire for $t {
            const TYPE_NAME: &'static str = $name;
            const FIXED_SIZE: Option<usize> = Some(core::mem::size_of::<$t>());
            const MIN_SIZE: usize = core::mem::size_of::<$t>();

            #[inline(always)]
            fn packed_size(&self) -> usize {
                core::mem::size_of::<$t>()
            }

            #[inline(always)]
            fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
                w.write_array(self.to_le_bytes())
            }

            #[inline(always)]
            fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
                r.read_array().map(<$t>::from_le_bytes)
            }
        }
    )*};
}

wire_number! {
    i8 => "int_8", i16 => "int_16", i32 => "int_32", i64 => "int_64",
    u8 => "uint_8", u16 => "uint_16", u32 => "uint_32", u64 => "uint_64",
    // `from_le_bytes`/`to_le_bytes` on floats are bit casts: NaN payloads are preserved.
    f32 => "float_32", f64 => "float_64",
}

impl Wire for bool {
    const TYPE_NAME: &'static str = "bool";
    const FIXED_SIZE: Option<usize> = Some(1);
    const MIN_SIZE: usize = 1;

    #[inline(always)]
    fn packed_size(&self) -> usize {
        1
    }

    /// Writes `0x01` for `true`, `0x00` for `false`.
    #[inline(always)]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        w.write_array([u8::from(*self)])
    }

    /// Any non-zero byte reads as `true`.
    #[inline(always)]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        r.read_array().map(|[b]: [u8; 1]| b != 0)
    }
}

/// Fixed-length array `T[N]`: exactly `N` element encodings, no count.
impl<T: Wire, const N: usize> Wire for [T; N] {
    const TYPE_NAME: &'static str = "fixed array";
    const FIXED_SIZE: Option<usize> = match T::FIXED_SIZE {
        Some(size) => Some(size * N),
        None if N == 0 => Some(0),
        None => None,
    };
    const MIN_SIZE: usize = T::MIN_SIZE * N;

    #[inline]
    fn packed_size(&self) -> usize {
        match Self::FIXED_SIZE {
            Some(size) => size,
            None => self.iter().map(Wire::packed_size).sum(),
        }
    }

    #[inline]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        for (i, item) in self.iter().enumerate() {
            item.write_to(w).in_index(i)?;
        }
        Ok(())
    }

    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        super::helpers::read_fixed_with(r, |r| T::read_from(r))
    }
}

/// A boxed value encodes exactly like the value (useful for large generated messages).
impl<T: Wire> Wire for Box<T> {
    const TYPE_NAME: &'static str = T::TYPE_NAME;
    const FIXED_SIZE: Option<usize> = T::FIXED_SIZE;
    const MIN_SIZE: usize = T::MIN_SIZE;

    #[inline]
    fn packed_size(&self) -> usize {
        (**self).packed_size()
    }

    #[inline]
    fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
        (**self).write_to(w)
    }

    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        T::read_from(r).map(Box::new)
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// The unsigned integer types usable as string and variable-array length prefixes:
/// `u8`, `u16`, `u32`, `u64` (CLAD `uint_8` … `uint_64`). Generated code names the length
/// type as the helper's type parameter, e.g. `write_string::<u16>(…)` for `string[uint_16]`.
pub trait LengthPrefix: Wire + Copy + sealed::Sealed {
    /// The largest length this type can express.
    const LIMIT: u64;
    /// Encoded size of the prefix in bytes.
    const SIZE: usize;

    /// Converts a length that the caller has checked to be `<= LIMIT` (larger values are
    /// truncated, so always check first).
    fn from_len(len: u64) -> Self;
    /// The length as `u64`.
    fn to_len(self) -> u64;
}

macro_rules! length_prefix {
    ($($t:ty),*) => {$(
        impl LengthPrefix for $t {
            const LIMIT: u64 = <$t>::MAX as u64;
            const SIZE: usize = core::mem::size_of::<$t>();

            #[inline(always)]
            fn from_len(len: u64) -> Self {
                len as $t
            }

            #[inline(always)]
            fn to_len(self) -> u64 {
                self as u64
            }
        }
    )*};
}

length_prefix!(u8, u16, u32, u64);
