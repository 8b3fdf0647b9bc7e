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

    /// An upper bound on the encoded size of any value (§3.11 `max_size`): `Some(n)` when no
    /// value encodes to more than `n` bytes, `None` when the bound is unknown or does not fit
    /// a `usize`. Every CLAD type has one (strings and arrays carry length prefixes of
    /// bounded width), and generated code states it, so a transport can refuse an input
    /// longer than its type can hold before decoding it. Defaults to
    /// [`FIXED_SIZE`](Wire::FIXED_SIZE).
    const MAX_SIZE: Option<usize> = Self::FIXED_SIZE;

    /// The schema hash of generated enums, messages, structures and unions: a hash over the
    /// type and every type it refers to (members with names and types in order, union tags,
    /// enum storage and values, nested types transitively; the canonical form is documented
    /// in `clad_codegen::schema_hash`). The same bytes as their inherent `SCHEMA_HASH`
    /// constant, here so generic code (transports checking that both ends were built from
    /// the same schema) can read it. `None` for the builtins and arrays.
    ///
    /// It is not the original compiler's per-declaration `VERSION_HASH`, which does not
    /// change when a nested type changes.
    const SCHEMA_HASH: Option<[u8; 16]> = None;

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

    /// Reads one value like [`Wire::read_then`] and returns `wrap(value)`.
    ///
    /// A union reading its member passes the member's variant constructor: generated
    /// messages and structures implement this method (and `read_then` as
    /// `Self::read_then_wrap(r, end, |v| v)`), assembling the value right inside the union
    /// being returned. Returning the member and then moving it into the union would copy it
    /// right after the many small stores that built it; the copy's wide loads then wait for
    /// those stores (store forwarding fails), which for a 108-byte member cost more than
    /// decoding it. The provided implementation is `Self::read_then(r, end).map(wrap)`.
    #[inline]
    fn read_then_wrap<U, F, W>(r: &mut Reader<'_>, end: F, wrap: W) -> Result<U, UnpackError>
    where
        F: FnOnce(&Reader<'_>) -> Result<(), UnpackError>,
        W: FnOnce(Self) -> U,
    {
        Self::read_then(r, end).map(wrap)
    }

    /// Reads one value into `self`, reusing what `self` already owns: the capacity of its
    /// `String`s and `Vec`s, and the elements of its variable arrays (read into in place). A
    /// union that already holds the member the input names is read into in place too.
    /// Checks and errors are exactly those of [`Wire::read_from`].
    ///
    /// On error `self` is still a valid value, but which one is unspecified: the members
    /// read before the failing one hold their new values, the failing member and those
    /// after it hold anything between their old and their new values (a variable array
    /// may be shorter or longer than either), and a union may hold the member the input
    /// named (with such a mix) or still its old member. Assign a value before using it
    /// again.
    ///
    /// The provided implementation assigns `Self::read_from(r)`; generated messages,
    /// structures and unions implement it member by member.
    #[inline]
    fn read_into(&mut self, r: &mut Reader<'_>) -> Result<(), UnpackError> {
        *self = Self::read_from(r)?;
        Ok(())
    }

    /// Reads `out.len()` consecutive values into `out` in place (the elements of a fixed
    /// array); an element's error gets its index in the path.
    ///
    /// The provided implementation calls [`Wire::read_into`] per element. The numbers and
    /// `bool` check the input length once and decode all elements in one loop (on a
    /// little-endian target a copy), so a truncated array of numbers is reported at its
    /// first byte with the whole array's size as `need`.
    #[inline]
    fn read_slice_into(r: &mut Reader<'_>, out: &mut [Self]) -> Result<(), UnpackError> {
        for (i, item) in out.iter_mut().enumerate() {
            item.read_into(r).in_index(i)?;
        }
        Ok(())
    }

    /// Reads the fixed array `[Self; N]` (what `<[Self; N]>::read_from` does). The provided
    /// implementation reads element by element without requiring `Self: Default`; the
    /// numbers and `bool` decode in bulk, as in [`Wire::read_slice_into`].
    #[inline]
    fn read_fixed_array<const N: usize>(r: &mut Reader<'_>) -> Result<[Self; N], UnpackError> {
        super::fixed::read_fixed_with(r, |r| Self::read_from(r))
    }

    /// Reads `count` consecutive values into `out`, which ends up holding exactly them (the
    /// elements of a variable array whose count has been read and checked against the
    /// remaining input: `count * MIN_SIZE` bytes are there). The elements `out`
    /// already holds are read into in place ([`Wire::read_into`]); the rest are pushed. An
    /// element's error gets its index in the path.
    ///
    /// The numbers and `bool` replace the contents in bulk (one length check, one loop).
    #[inline]
    fn read_vec_items_into(
        r: &mut Reader<'_>,
        count: usize,
        out: &mut Vec<Self>,
    ) -> Result<(), UnpackError> {
        out.truncate(count);
        for (i, item) in out.iter_mut().enumerate() {
            item.read_into(r).in_index(i)?;
        }
        let reuse = out.len();
        out.reserve(super::budget::prealloc_count::<Self>(count - reuse));
        for i in reuse..count {
            out.push(Self::read_from(r).in_index(i)?);
        }
        Ok(())
    }

    /// `true` when every `FIXED_SIZE`-byte pattern decodes without error (the numbers and
    /// `bool`): a borrowed [`ArrayView`](super::ArrayView) of such elements needs no
    /// validation pass. `false` (the provided value) is always correct.
    const ANY_BYTES_VALID: bool = false;

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
    #[inline]
    fn pack_into(&self, buf: &mut [u8]) -> Result<usize, PackError> {
        let mut w = Writer::new(buf);
        self.write_to(&mut w)?;
        Ok(w.position())
    }

    /// Unpacks a value that must span all of `bytes`: trailing bytes are an
    /// [`UnpackErrorKind::TrailingBytes`](super::UnpackErrorKind::TrailingBytes) error.
    #[inline]
    fn unpack(bytes: &[u8]) -> Result<Self, UnpackError> {
        let mut r = Reader::new(bytes);
        Self::read_then(&mut r, |r| r.finish(Self::TYPE_NAME))
    }

    /// Unpacks a value that must span all of `bytes` into `self`, reusing the capacity of
    /// its `String`s and `Vec`s (what `prost`'s `merge` is to a fresh decode): with enough
    /// capacity, decoding allocates nothing. Same checks and errors as [`Wire::unpack`];
    /// on error `self` holds an unspecified valid value (see [`Wire::read_into`]).
    #[inline]
    fn unpack_into(&mut self, bytes: &[u8]) -> Result<(), UnpackError> {
        let mut r = Reader::new(bytes);
        self.read_into(&mut r)?;
        r.finish(Self::TYPE_NAME)
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

            const ANY_BYTES_VALID: bool = true;

            #[inline]
            fn read_slice_into(r: &mut Reader<'_>, out: &mut [Self]) -> Result<(), UnpackError> {
                const SIZE: usize = core::mem::size_of::<$t>();
                let bytes = r.read_bytes_u64(out.len() as u64 * SIZE as u64)?;
                decode_le(bytes, out, <$t>::from_le_bytes);
                Ok(())
            }

            #[inline]
            fn read_fixed_array<const N: usize>(
                r: &mut Reader<'_>,
            ) -> Result<[Self; N], UnpackError> {
                const SIZE: usize = core::mem::size_of::<$t>();
                let bytes = r.read_bytes_u64(N as u64 * SIZE as u64)?;
                let mut out = [0 as $t; N];
                decode_le(bytes, &mut out, <$t>::from_le_bytes);
                Ok(out)
            }

            #[inline]
            fn read_vec_items_into(
                r: &mut Reader<'_>,
                count: usize,
                out: &mut Vec<Self>,
            ) -> Result<(), UnpackError> {
                const SIZE: usize = core::mem::size_of::<$t>();
                let bytes = r.read_bytes_u64(count as u64 * SIZE as u64)?;
                out.clear();
                extend_le(bytes, out, <$t>::from_le_bytes);
                Ok(())
            }
        }
    )*};
}

/// Decodes packed little-endian `N`-byte numbers: `bytes.len() == out.len() * N`.
///
/// One loop over `chunks_exact`, which the compiler turns into a copy on little-endian
/// targets and into vectorised byte swaps on big-endian ones (no `unsafe`).
#[inline(always)]
fn decode_le<T, const N: usize>(bytes: &[u8], out: &mut [T], from_le: fn([u8; N]) -> T) {
    for (item, chunk) in out.iter_mut().zip(bytes.chunks_exact(N)) {
        if let Ok(chunk) = <[u8; N]>::try_from(chunk) {
            *item = from_le(chunk);
        }
    }
}

/// Appends the packed little-endian `N`-byte numbers of `bytes` to `out` (one reservation;
/// `chunks_exact` has an exact length, so the loop has no capacity checks).
#[inline(always)]
fn extend_le<T, const N: usize>(bytes: &[u8], out: &mut Vec<T>, from_le: fn([u8; N]) -> T) {
    out.extend(bytes.chunks_exact(N).map(|chunk| {
        let mut a = [0; N];
        a.copy_from_slice(chunk);
        from_le(a)
    }));
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

    const ANY_BYTES_VALID: bool = true;

    #[inline]
    fn read_slice_into(r: &mut Reader<'_>, out: &mut [Self]) -> Result<(), UnpackError> {
        let bytes = r.read_bytes(out.len())?;
        decode_le(bytes, out, |[b]: [u8; 1]| b != 0);
        Ok(())
    }

    #[inline]
    fn read_fixed_array<const N: usize>(r: &mut Reader<'_>) -> Result<[Self; N], UnpackError> {
        let bytes = r.read_bytes(N)?;
        Ok(core::array::from_fn(|i| bytes[i] != 0))
    }

    #[inline]
    fn read_vec_items_into(
        r: &mut Reader<'_>,
        count: usize,
        out: &mut Vec<Self>,
    ) -> Result<(), UnpackError> {
        let bytes = r.read_bytes(count)?;
        out.clear();
        out.extend(bytes.iter().map(|&b| b != 0));
        Ok(())
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
    const MAX_SIZE: Option<usize> = match T::MAX_SIZE {
        Some(size) => size.checked_mul(N),
        None if N == 0 => Some(0),
        None => None,
    };

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

    /// The numbers and `bool` check the array's length once and decode in one loop; other
    /// elements are read one by one.
    #[inline]
    fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
        T::read_fixed_array::<N>(r)
    }

    /// Reads the elements in place ([`Wire::read_slice_into`]).
    #[inline]
    fn read_into(&mut self, r: &mut Reader<'_>) -> Result<(), UnpackError> {
        T::read_slice_into(r, self)
    }

    const ANY_BYTES_VALID: bool = T::ANY_BYTES_VALID;
}

/// A boxed value encodes exactly like the value (useful for large generated messages).
impl<T: Wire> Wire for Box<T> {
    const TYPE_NAME: &'static str = T::TYPE_NAME;
    const FIXED_SIZE: Option<usize> = T::FIXED_SIZE;
    const MIN_SIZE: usize = T::MIN_SIZE;
    const MAX_SIZE: Option<usize> = T::MAX_SIZE;
    const SCHEMA_HASH: Option<[u8; 16]> = T::SCHEMA_HASH;

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

    /// Reads into the boxed value in place (no new allocation).
    #[inline]
    fn read_into(&mut self, r: &mut Reader<'_>) -> Result<(), UnpackError> {
        (**self).read_into(r)
    }

    const ANY_BYTES_VALID: bool = T::ANY_BYTES_VALID;
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

    /// The prefix at the start of `bytes` as `u64`; `None` when `bytes` is shorter than
    /// [`LengthPrefix::SIZE`].
    fn read_prefix(bytes: &[u8]) -> Option<u64>;
    /// Writes `len` (checked by the caller to be `<= LIMIT`) as a prefix at the start of
    /// `bytes`; `None` when `bytes` is shorter than [`LengthPrefix::SIZE`].
    fn write_prefix(len: u64, bytes: &mut [u8]) -> Option<()>;
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

            #[inline(always)]
            fn read_prefix(bytes: &[u8]) -> Option<u64> {
                const SIZE: usize = core::mem::size_of::<$t>();
                bytes.first_chunk::<SIZE>().map(|b| <$t>::from_le_bytes(*b) as u64)
            }

            #[inline(always)]
            fn write_prefix(len: u64, bytes: &mut [u8]) -> Option<()> {
                const SIZE: usize = core::mem::size_of::<$t>();
                *bytes.first_chunk_mut::<SIZE>()? = (len as $t).to_le_bytes();
                Some(())
            }
        }
    )*};
}

length_prefix!(u8, u16, u32, u64);
