//! Error types of the wire codec: [`PackError`], [`UnpackError`] and the field path they
//! carry.
//!
//! Both error types are a single pointer wide (the details live in a `Box` that is only
//! allocated when an error actually happens), so `Result<u32, UnpackError>` is returned in
//! registers and the success path never allocates.

use std::fmt;

/// One step of a [`FieldPath`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathSegment {
    /// A member `field` of the message, structure or union `type_name`.
    Field {
        /// The CLAD name of the type that has the member (what the generated code passes,
        /// normally the type's [`Wire::TYPE_NAME`](crate::wire::Wire::TYPE_NAME)).
        type_name: &'static str,
        /// The member name as written in the schema.
        field: &'static str,
    },
    /// Element `index` of a variable or fixed-length array.
    Index(usize),
}

/// Where in a nested value an error happened, for example `Bar.foos[3].myString`.
///
/// Segments are pushed from the inside out while the error propagates (see
/// [`UnpackError::in_field`]); [`FieldPath::segments`] yields them outermost first.
/// An empty path does not allocate.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct FieldPath {
    /// Innermost segment first.
    inner_first: Vec<PathSegment>,
}

impl FieldPath {
    /// `true` when no segment has been recorded.
    pub fn is_empty(&self) -> bool {
        self.inner_first.is_empty()
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.inner_first.len()
    }

    /// The segments, outermost (top-level type) first.
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = PathSegment> + '_ {
        self.inner_first.iter().rev().copied()
    }

    /// The innermost member, as `(type_name, field)`: the member that actually failed.
    pub fn innermost_field(&self) -> Option<(&'static str, &'static str)> {
        self.inner_first.iter().find_map(|s| match *s {
            PathSegment::Field { type_name, field } => Some((type_name, field)),
            PathSegment::Index(_) => None,
        })
    }

    fn push(&mut self, segment: PathSegment) {
        self.inner_first.push(segment);
    }
}

impl fmt::Display for FieldPath {
    /// Renders `Outer.member.inner[3].field`: the outermost type name, then member names
    /// and array indices.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first_field = true;
        for segment in self.segments() {
            match segment {
                PathSegment::Field { type_name, field } if first_field => {
                    first_field = false;
                    write!(f, "{type_name}.{field}")?;
                }
                PathSegment::Field { field, .. } => write!(f, ".{field}")?,
                PathSegment::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

/// Whether a length belongs to a string (counted in bytes) or an array (counted in
/// elements).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SeqKind {
    /// A `string[L]`; its length counts UTF-8 bytes.
    String,
    /// A variable-length array `T[L]`; its length counts elements.
    Array,
}

impl SeqKind {
    fn noun(self) -> &'static str {
        match self {
            SeqKind::String => "string",
            SeqKind::Array => "array",
        }
    }

    fn unit(self) -> &'static str {
        match self {
            SeqKind::String => "bytes",
            SeqKind::Array => "elements",
        }
    }
}

// ---------------------------------------------------------------------------------------
// Unpack errors
// ---------------------------------------------------------------------------------------

/// What went wrong while unpacking. Part of an [`UnpackError`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnpackErrorKind {
    /// The input ended before the value was complete. Also reported when a length prefix
    /// announces more elements than the remaining input could possibly hold (checked before
    /// anything is allocated); `need` is then the minimum number of bytes those elements
    /// take.
    Truncated {
        /// Bytes needed at this point.
        need: u64,
        /// Bytes that were left.
        left: usize,
    },
    /// [`Wire::unpack`](crate::wire::Wire::unpack) read a complete value but input was left.
    TrailingBytes {
        /// The top-level type that was unpacked.
        type_name: &'static str,
        /// Unread bytes.
        left: usize,
    },
    /// A union tag that is not the tag of any member.
    UnknownTag {
        /// The union type.
        type_name: &'static str,
        /// The tag byte that was read.
        tag: u8,
    },
    /// The union tag `0xFF` (INVALID, an empty union), which strict decoding rejects.
    InvalidTag {
        /// The union type.
        type_name: &'static str,
    },
    /// A string or array length above the declared maximum (`[L:max]`, `string[L:max]`).
    AboveMax {
        /// String or array.
        what: SeqKind,
        /// The length that was read.
        len: u64,
        /// The declared maximum.
        max: u64,
    },
    /// An enum storage value that is not the value of any enumerator.
    InvalidEnum {
        /// The enum type.
        type_name: &'static str,
        /// The value that was read (any storage type fits in `i128`).
        value: i128,
    },
    /// String bytes that are not valid UTF-8.
    InvalidUtf8 {
        /// Length of the longest valid UTF-8 prefix of the string's bytes (the error offset
        /// points at the first invalid byte).
        valid_up_to: usize,
    },
    /// A variable array of elements that may take zero bytes each announced more elements
    /// than [`MAX_ZERO_SIZED_ELEMENTS`](crate::wire::MAX_ZERO_SIZED_ELEMENTS).
    TooManyElements {
        /// The count that was read.
        count: u64,
        /// The limit.
        limit: u64,
    },
    /// A check specific to a type failed (for hand-written [`Wire`](crate::wire::Wire)
    /// implementations).
    Invalid {
        /// What was wrong.
        message: &'static str,
    },
}

impl UnpackErrorKind {
    /// Short description without numbers, e.g. `truncated input`.
    pub fn summary(&self) -> &'static str {
        match self {
            UnpackErrorKind::Truncated { .. } => "truncated input",
            UnpackErrorKind::TrailingBytes { .. } => "trailing bytes",
            UnpackErrorKind::UnknownTag { .. } => "unknown union tag",
            UnpackErrorKind::InvalidTag { .. } => "invalid union tag",
            UnpackErrorKind::AboveMax { .. } => "length above declared maximum",
            UnpackErrorKind::InvalidEnum { .. } => "invalid enum value",
            UnpackErrorKind::InvalidUtf8 { .. } => "invalid UTF-8",
            UnpackErrorKind::TooManyElements { .. } => "too many zero-sized elements",
            UnpackErrorKind::Invalid { .. } => "invalid value",
        }
    }

    fn detail(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnpackErrorKind::Truncated { need, left } => {
                write!(f, "need {need} bytes, {left} left")
            }
            UnpackErrorKind::TrailingBytes { type_name, left } => {
                write!(f, "{left} unread bytes after a complete {type_name}")
            }
            UnpackErrorKind::UnknownTag { type_name, tag } => {
                write!(f, "{tag} is not a member tag of {type_name}")
            }
            UnpackErrorKind::InvalidTag { type_name } => {
                write!(f, "tag 255 (INVALID) for {type_name}")
            }
            UnpackErrorKind::AboveMax { what, len, max } => write!(
                f,
                "{} of {len} {}, declared maximum is {max}",
                what.noun(),
                what.unit()
            ),
            UnpackErrorKind::InvalidEnum { type_name, value } => {
                write!(f, "{value} is not a member of {type_name}")
            }
            UnpackErrorKind::InvalidUtf8 { valid_up_to } => {
                write!(f, "string is valid UTF-8 only up to its byte {valid_up_to}")
            }
            UnpackErrorKind::TooManyElements { count, limit } => {
                write!(f, "{count} elements, limit is {limit}")
            }
            UnpackErrorKind::Invalid { message } => f.write_str(message),
        }
    }
}

impl fmt::Display for UnpackErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.summary())?;
        self.detail(f)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct UnpackErrorInner {
    kind: UnpackErrorKind,
    offset: usize,
    path: FieldPath,
}

impl fmt::Display for UnpackErrorInner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.summary(), self.offset)?;
        if !self.path.is_empty() {
            write!(f, " while reading {}", self.path)?;
        }
        f.write_str(": ")?;
        self.kind.detail(f)
    }
}

/// Unpacking failed: the [kind](UnpackError::kind) of failure, the byte
/// [offset](UnpackError::offset) in the input where it happened and the
/// [field path](UnpackError::path) that was being read.
///
/// Display example:
/// `truncated input at byte 12 while reading Foo.myString: need 5 bytes, 3 left`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{0}")]
pub struct UnpackError(Box<UnpackErrorInner>);

impl UnpackError {
    /// A new error of `kind` at byte `offset` of the input, with an empty path.
    #[cold]
    #[inline(never)]
    pub fn new(kind: UnpackErrorKind, offset: usize) -> Self {
        UnpackError(Box::new(UnpackErrorInner {
            kind,
            offset,
            path: FieldPath::default(),
        }))
    }

    /// [`UnpackErrorKind::UnknownTag`] for the union `type_name` whose tag byte `tag` is at
    /// `offset`.
    #[cold]
    pub fn unknown_tag(type_name: &'static str, tag: u8, offset: usize) -> Self {
        Self::new(UnpackErrorKind::UnknownTag { type_name, tag }, offset)
    }

    /// [`UnpackErrorKind::InvalidEnum`] for the enum `type_name` whose value starts at
    /// `offset`.
    #[cold]
    pub fn invalid_enum(type_name: &'static str, value: i128, offset: usize) -> Self {
        Self::new(UnpackErrorKind::InvalidEnum { type_name, value }, offset)
    }

    /// Records that the error happened inside member `field` of type `type_name`.
    ///
    /// Generated code calls this (through [`FieldContext::in_field`](crate::wire::FieldContext))
    /// only on the error path, innermost first, so a nested failure ends up with a path
    /// like `Outer.inner.field`.
    #[cold]
    #[inline(never)]
    #[must_use]
    pub fn in_field(mut self, type_name: &'static str, field: &'static str) -> Self {
        self.0.path.push(PathSegment::Field { type_name, field });
        self
    }

    /// Records that the error happened inside array element `index`.
    #[cold]
    #[inline(never)]
    #[must_use]
    pub fn in_index(mut self, index: usize) -> Self {
        self.0.path.push(PathSegment::Index(index));
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &UnpackErrorKind {
        &self.0.kind
    }

    /// Byte offset in the input (from the start of the buffer given to the
    /// [`Reader`](crate::wire::Reader)) where the failing item starts.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The member path that was being read.
    pub fn path(&self) -> &FieldPath {
        &self.0.path
    }
}

// ---------------------------------------------------------------------------------------
// Pack errors
// ---------------------------------------------------------------------------------------

/// What went wrong while packing. Part of a [`PackError`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PackErrorKind {
    /// A string or array is longer than its length prefix type can express.
    LengthOverflow {
        /// String or array.
        what: SeqKind,
        /// The actual length (bytes for strings, elements for arrays).
        len: usize,
        /// The CLAD name of the length type, e.g. `uint_8`.
        length_type: &'static str,
        /// The largest length the length type can express.
        limit: u64,
    },
    /// A string or array is longer than its declared maximum.
    AboveMax {
        /// String or array.
        what: SeqKind,
        /// The actual length (bytes for strings, elements for arrays).
        len: usize,
        /// The declared maximum.
        max: u64,
    },
    /// The caller's buffer given to [`Wire::pack_into`](crate::wire::Wire::pack_into) is too
    /// small.
    BufferTooSmall {
        /// Bytes needed by the write that failed.
        need: usize,
        /// Bytes that were left in the buffer.
        left: usize,
    },
    /// A union that holds no member (tag INVALID) cannot be packed.
    InvalidUnion {
        /// The union type.
        type_name: &'static str,
    },
    /// A variable array of elements that may take zero bytes each is longer than
    /// [`MAX_ZERO_SIZED_ELEMENTS`](crate::wire::MAX_ZERO_SIZED_ELEMENTS) (it could not be
    /// unpacked again).
    TooManyElements {
        /// The number of elements.
        count: u64,
        /// The limit.
        limit: u64,
    },
    /// A [`Wire`](crate::wire::Wire) implementation wrote a different number of bytes than
    /// its `packed_size` announced. This is a bug in that implementation.
    SizeMismatch {
        /// What `packed_size` returned.
        expected: usize,
        /// What `write_to` wrote.
        written: usize,
    },
    /// A check specific to a type failed (for hand-written implementations).
    Invalid {
        /// What was wrong.
        message: &'static str,
    },
}

impl PackErrorKind {
    /// Short description without numbers.
    pub fn summary(&self) -> &'static str {
        match self {
            PackErrorKind::LengthOverflow { .. } => "length does not fit its length type",
            PackErrorKind::AboveMax { .. } => "length above declared maximum",
            PackErrorKind::BufferTooSmall { .. } => "output buffer too small",
            PackErrorKind::InvalidUnion { .. } => "cannot pack an empty union",
            PackErrorKind::TooManyElements { .. } => "too many zero-sized elements",
            PackErrorKind::SizeMismatch { .. } => "packed size mismatch",
            PackErrorKind::Invalid { .. } => "invalid value",
        }
    }

    fn detail(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackErrorKind::LengthOverflow {
                what,
                len,
                length_type,
                limit,
            } => write!(
                f,
                "{} of {len} {}, {length_type} allows at most {limit}",
                what.noun(),
                what.unit()
            ),
            PackErrorKind::AboveMax { what, len, max } => write!(
                f,
                "{} of {len} {}, declared maximum is {max}",
                what.noun(),
                what.unit()
            ),
            PackErrorKind::BufferTooSmall { need, left } => {
                write!(f, "need {need} bytes, {left} left")
            }
            PackErrorKind::InvalidUnion { type_name } => {
                write!(f, "{type_name} holds no member (tag INVALID)")
            }
            PackErrorKind::TooManyElements { count, limit } => {
                write!(f, "{count} elements, limit is {limit}")
            }
            PackErrorKind::SizeMismatch { expected, written } => write!(
                f,
                "packed_size() announced {expected} bytes but {written} were written"
            ),
            PackErrorKind::Invalid { message } => f.write_str(message),
        }
    }
}

impl fmt::Display for PackErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.summary())?;
        self.detail(f)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct PackErrorInner {
    kind: PackErrorKind,
    offset: usize,
    path: FieldPath,
}

impl fmt::Display for PackErrorInner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind.summary(), self.offset)?;
        if !self.path.is_empty() {
            write!(f, " while packing {}", self.path)?;
        }
        f.write_str(": ")?;
        self.kind.detail(f)
    }
}

/// Packing failed: the [kind](PackError::kind) of failure, the output byte
/// [offset](PackError::offset) reached and the [field path](PackError::path).
///
/// Display example: `length above declared maximum at byte 4 while packing
/// Demo::Robot.name: string of 101 bytes, declared maximum is 100`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{0}")]
pub struct PackError(Box<PackErrorInner>);

impl PackError {
    /// A new error of `kind` at output byte `offset`, with an empty path.
    #[cold]
    #[inline(never)]
    pub fn new(kind: PackErrorKind, offset: usize) -> Self {
        PackError(Box::new(PackErrorInner {
            kind,
            offset,
            path: FieldPath::default(),
        }))
    }

    /// [`PackErrorKind::InvalidUnion`]: for generated unions that can represent the
    /// INVALID (empty) state and are asked to pack it.
    #[cold]
    pub fn invalid_union(type_name: &'static str, offset: usize) -> Self {
        Self::new(PackErrorKind::InvalidUnion { type_name }, offset)
    }

    /// Records that the error happened inside member `field` of type `type_name` (see
    /// [`UnpackError::in_field`]).
    #[cold]
    #[inline(never)]
    #[must_use]
    pub fn in_field(mut self, type_name: &'static str, field: &'static str) -> Self {
        self.0.path.push(PathSegment::Field { type_name, field });
        self
    }

    /// Records that the error happened inside array element `index`.
    #[cold]
    #[inline(never)]
    #[must_use]
    pub fn in_index(mut self, index: usize) -> Self {
        self.0.path.push(PathSegment::Index(index));
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &PackErrorKind {
        &self.0.kind
    }

    /// Output byte offset (relative to the start of the [`Writer`](crate::wire::Writer)'s
    /// buffer) where the failing item would have started.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The member path that was being packed.
    pub fn path(&self) -> &FieldPath {
        &self.0.path
    }
}

// ---------------------------------------------------------------------------------------
// Context extension for results
// ---------------------------------------------------------------------------------------

mod sealed {
    pub trait Sealed {}
    impl<T> Sealed for Result<T, super::UnpackError> {}
    impl<T> Sealed for Result<T, super::PackError> {}
}

/// Adds a path segment to the error of a `Result<_, UnpackError>` or
/// `Result<_, PackError>`, only when it is an error.
///
/// This is how generated code labels fields without allocating on the success path:
///
/// ```
/// # use clad_runtime::wire::{FieldContext, Reader, UnpackError, Wire};
/// # fn f(r: &mut Reader<'_>) -> Result<u32, UnpackError> {
/// let my_normal = u32::read_from(r).in_field("Foo", "myNormal")?;
/// # Ok(my_normal) }
/// ```
pub trait FieldContext: sealed::Sealed + Sized {
    /// On error, record that it happened inside member `field` of `type_name`.
    fn in_field(self, type_name: &'static str, field: &'static str) -> Self;
    /// On error, record that it happened inside array element `index`.
    fn in_index(self, index: usize) -> Self;
}

impl<T> FieldContext for Result<T, UnpackError> {
    #[inline(always)]
    fn in_field(self, type_name: &'static str, field: &'static str) -> Self {
        match self {
            Ok(v) => Ok(v),
            Err(e) => Err(e.in_field(type_name, field)),
        }
    }

    #[inline(always)]
    fn in_index(self, index: usize) -> Self {
        match self {
            Ok(v) => Ok(v),
            Err(e) => Err(e.in_index(index)),
        }
    }
}

impl<T> FieldContext for Result<T, PackError> {
    #[inline(always)]
    fn in_field(self, type_name: &'static str, field: &'static str) -> Self {
        match self {
            Ok(v) => Ok(v),
            Err(e) => Err(e.in_field(type_name, field)),
        }
    }

    #[inline(always)]
    fn in_index(self, index: usize) -> Self {
        match self {
            Ok(v) => Ok(v),
            Err(e) => Err(e.in_index(index)),
        }
    }
}
