//! Borrowed views: decoding without copying strings and arrays.
//!
//! For the types a build selects (`Builder::view`), the code generator also emits a
//! `<Name>View<'a>` type: the same members, but `string` members are `&'a str`, `uint_8`
//! variable arrays are `&'a [u8]` and other variable arrays of fixed-size elements are
//! [`ArrayView`]s, all pointing into the packed bytes. Decoding a view checks exactly what
//! [`Wire::unpack`] checks (lengths, declared maxima, UTF-8, enum values, union tags,
//! trailing bytes) and reports the same [`UnpackError`]s, but it does not allocate for those
//! members: a message of seven strings decodes without a single allocation. Arrays of
//! strings or of borrowing structures are a `Vec` of borrowed items (one allocation for the
//! `Vec`, none per item).
//!
//! ```ignore
//! use clad_runtime::wire::WireView;
//! let msg = MessageView::unpack_view(&datagram)?;   // borrows `datagram`
//! if let MessageView::Result(r) = msg {
//!     handle(r.intent, r.parameters);              // &str, no copy
//! }
//! let owned: Message = msg.into_owned();           // when it must outlive the datagram
//! ```
//!
//! Every view has `into_owned()` (and `From<View> for Owned`); every owned type with a view
//! has `view()`, so `Owned::unpack(b)?.view() == View::unpack_view(b)?` for all input (a
//! NaN aside, which is not equal to itself).

use super::array::read_counted;
use super::error::{FieldContext, SeqKind, UnpackError};
use super::fixed::read_fixed_with;
use super::length::{check_count, read_bytes_u64, read_len};
use super::reader::Reader;
use super::string::read_str;
use super::traits::{LengthPrefix, Wire};

/// A borrowed view of a generated type, decoded from bytes that outlive it (`'a`).
///
/// Generated views implement [`WireView::read_view_then`] and [`WireView::into_owned`];
/// the rest is provided.
pub trait WireView<'a>: Sized {
    /// The owned type this is a view of.
    type Owned: Wire;

    /// Reads one view from `r` (like [`Wire::read_then`]: `end` runs after the last byte is
    /// read and before the value is assembled).
    fn read_view_then<F>(r: &mut Reader<'a>, end: F) -> Result<Self, UnpackError>
    where
        F: FnOnce(&Reader<'a>) -> Result<(), UnpackError>;

    /// Copies the borrowed members into an owned value.
    fn into_owned(self) -> Self::Owned;

    /// Reads one view from `r`, leaving `r` after it.
    #[inline]
    fn read_view(r: &mut Reader<'a>) -> Result<Self, UnpackError> {
        Self::read_view_then(r, |_| Ok(()))
    }

    /// Decodes a view that must span all of `bytes` (trailing bytes are an error), with
    /// exactly the checks of [`Wire::unpack`].
    #[inline]
    fn unpack_view(bytes: &'a [u8]) -> Result<Self, UnpackError> {
        let mut r = Reader::new(bytes);
        Self::read_view_then(&mut r, |r| r.finish(<Self::Owned as Wire>::TYPE_NAME))
    }

    /// Decodes a view from the start of `bytes` and returns it with the number of bytes it
    /// took (for streams and framing).
    #[inline]
    fn unpack_view_prefix(bytes: &'a [u8]) -> Result<(Self, usize), UnpackError> {
        let mut r = Reader::new(bytes);
        let view = Self::read_view(&mut r)?;
        Ok((view, r.position()))
    }
}

/// An owned generated type that has a borrowed view: links the two for generic code (what
/// `Owned::view()` and `View::into_owned()` do for one type).
pub trait HasView: Wire {
    /// The view type.
    type View<'a>: WireView<'a, Owned = Self> + Clone + core::fmt::Debug + PartialEq
    where
        Self: 'a;

    /// A view borrowing this value's strings and byte arrays.
    fn view(&self) -> Self::View<'_>;
}

/// Reads the variable array `uint_8 name[L:max]` as a slice of the input.
#[inline]
pub fn read_byte_slice<'a, L: LengthPrefix>(
    r: &mut Reader<'a>,
    max: u64,
) -> Result<&'a [u8], UnpackError> {
    let len = read_len::<L>(r, SeqKind::Array, max)?;
    read_bytes_u64(r, len)
}

/// Reads the variable array `string[SL:string_max] name[L:max]` as borrowed strings (the
/// count is checked against the remaining input before the `Vec` is allocated).
#[inline]
pub fn read_str_vec<'a, L: LengthPrefix, SL: LengthPrefix>(
    r: &mut Reader<'a>,
    max: u64,
    string_max: u64,
) -> Result<Vec<&'a str>, UnpackError> {
    read_counted::<L, _>(r, max, SL::SIZE, |r| read_str::<SL>(r, string_max))
}

/// Reads the fixed array `string[SL:string_max] name[N]` as borrowed strings.
#[inline]
pub fn read_str_array<'a, SL: LengthPrefix, const N: usize>(
    r: &mut Reader<'a>,
    string_max: u64,
) -> Result<[&'a str; N], UnpackError> {
    read_fixed_with(r, |r| read_str::<SL>(r, string_max))
}

/// Reads one view (the generated code's spelling of [`WireView::read_view`]).
#[inline]
pub fn read_view<'a, V: WireView<'a>>(r: &mut Reader<'a>) -> Result<V, UnpackError> {
    V::read_view(r)
}

/// Reads the variable array `T name[L:max]` of a type with a view, as views (count checked
/// before allocating, against the owned type's minimum size).
#[inline]
pub fn read_view_vec<'a, L: LengthPrefix, V: WireView<'a>>(
    r: &mut Reader<'a>,
    max: u64,
) -> Result<Vec<V>, UnpackError> {
    read_counted::<L, _>(r, max, <V::Owned as Wire>::MIN_SIZE, V::read_view)
}

/// Reads the fixed array `T name[N]` of a type with a view, as views.
#[inline]
pub fn read_view_array<'a, V: WireView<'a>, const N: usize>(
    r: &mut Reader<'a>,
) -> Result<[V; N], UnpackError> {
    read_fixed_with(r, |r| V::read_view(r))
}

/// A variable array of fixed-size elements (`int_16 samples[uint_16]`, `Pose poses[uint_8]`)
/// inside a view: the elements stay packed in the input and are decoded when read, so
/// decoding the view allocates and copies nothing for them.
///
/// Decoding validates every element exactly as the owned decode does (same errors at the
/// same offsets: an enum value that is not a member is rejected up front), so reading an
/// element afterwards cannot fail. A view made from an owned value ([`HasView::view`])
/// borrows the owned elements instead; both kinds compare equal when their elements do.
pub struct ArrayView<'a, T> {
    repr: ArrayRepr<'a, T>,
}

enum ArrayRepr<'a, T> {
    /// `len` validated encodings of `T::FIXED_SIZE` bytes each.
    Packed { bytes: &'a [u8], len: usize },
    /// Elements of an owned value.
    Items(&'a [T]),
}

impl<T> Clone for ArrayView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ArrayView<'_, T> {}

impl<T> Clone for ArrayRepr<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ArrayRepr<'_, T> {}

impl<'a, T> From<&'a [T]> for ArrayView<'a, T> {
    fn from(items: &'a [T]) -> Self {
        ArrayView {
            repr: ArrayRepr::Items(items),
        }
    }
}

impl<'a, T: Wire + Clone> ArrayView<'a, T> {
    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        match self.repr {
            ArrayRepr::Packed { len, .. } => len,
            ArrayRepr::Items(items) => items.len(),
        }
    }

    /// `true` when there are no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element at `index`, decoded (or cloned from the owned value).
    #[inline]
    pub fn get(&self, index: usize) -> Option<T> {
        match self.repr {
            ArrayRepr::Packed { bytes, len } => (index < len).then(|| decode_at(bytes, index)),
            ArrayRepr::Items(items) => items.get(index).cloned(),
        }
    }

    /// The elements in order.
    #[inline]
    pub fn iter(&self) -> ArrayViewIter<'a, T> {
        ArrayViewIter {
            view: *self,
            next: 0,
        }
    }

    /// The elements as a `Vec` (what the owned type holds).
    pub fn to_vec(&self) -> Vec<T> {
        match self.repr {
            ArrayRepr::Packed { bytes, len } => {
                let mut items = Vec::new();
                // The elements were validated when the view was made, so this cannot fail
                // (the numbers decode in bulk).
                match T::read_vec_items_into(&mut Reader::new(bytes), len, &mut items) {
                    Ok(()) => items,
                    Err(e) => unreachable!("the elements were validated: {e}"),
                }
            }
            ArrayRepr::Items(items) => items.to_vec(),
        }
    }
}

/// Decodes element `index` of validated packed elements.
#[inline]
fn decode_at<T: Wire>(bytes: &[u8], index: usize) -> T {
    let size = T::FIXED_SIZE.unwrap_or(0);
    let start = index * size;
    let mut r = Reader::new(&bytes[start..start + size]);
    match T::read_from(&mut r) {
        Ok(v) => v,
        // Every element was decoded successfully when the view was made.
        Err(e) => unreachable!("element {index} was validated: {e}"),
    }
}

/// Iterator over an [`ArrayView`]'s elements.
pub struct ArrayViewIter<'a, T> {
    view: ArrayView<'a, T>,
    next: usize,
}

impl<T: Wire + Clone> Iterator for ArrayViewIter<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        let item = self.view.get(self.next)?;
        self.next += 1;
        Some(item)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.view.len() - self.next;
        (left, Some(left))
    }
}

impl<T: Wire + Clone> ExactSizeIterator for ArrayViewIter<'_, T> {}

impl<'a, T: Wire + Clone> IntoIterator for ArrayView<'a, T> {
    type Item = T;
    type IntoIter = ArrayViewIter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Wire + Clone + core::fmt::Debug> core::fmt::Debug for ArrayView<'_, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Wire + Clone + PartialEq> PartialEq for ArrayView<'_, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: Wire + Clone + Eq> Eq for ArrayView<'_, T> {}

impl<T: Wire + Clone + core::hash::Hash> core::hash::Hash for ArrayView<'_, T> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.len().hash(state);
        for item in self.iter() {
            item.hash(state);
        }
    }
}

/// Reads the variable array `T name[L:max]` of fixed-size elements as an [`ArrayView`]:
/// the same checks and errors as [`read_vec`](super::read_vec) (count against `max` and
/// the remaining input, every element decoded once to validate it), without allocating.
#[inline]
pub fn read_array_view<'a, L: LengthPrefix, T: Wire>(
    r: &mut Reader<'a>,
    max: u64,
) -> Result<ArrayView<'a, T>, UnpackError> {
    const {
        assert!(
            T::FIXED_SIZE.is_some(),
            "ArrayView holds fixed-size elements only"
        )
    };
    let size = T::FIXED_SIZE.unwrap_or(0);
    let len = read_len::<L>(r, SeqKind::Array, max)?;
    let count = check_count(r, len, size)?;
    let start = r.remaining_bytes();
    if T::ANY_BYTES_VALID {
        // Numbers: every byte pattern is a value, nothing to validate.
        read_bytes_u64(r, count as u64 * size as u64)?;
    } else {
        for i in 0..count {
            T::read_from(r).in_index(i)?;
        }
    }
    Ok(ArrayView {
        repr: ArrayRepr::Packed {
            bytes: &start[..count * size],
            len: count,
        },
    })
}
