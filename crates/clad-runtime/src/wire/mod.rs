//! The CLAD wire format: the [`Wire`] trait, [`Reader`]/[`Writer`] cursors, the functions
//! generated code calls for what is not a [`Wire`] type by itself, one module per concept
//! (length prefixes, strings, arrays, enum values, union members, size constants), and the
//! [`PackError`]/[`UnpackError`] types.
//!
//! # Format
//!
//! Little-endian, packed, no padding, no framing (spec §4):
//!
//! | CLAD | Rust (generated) | encoding | API |
//! |---|---|---|---|
//! | `bool` | `bool` | 1 byte, written 0/1, any non-zero reads as `true` | [`Wire`] |
//! | `int_N`/`uint_N` | `iN`/`uN` | two's complement LE | [`Wire`] |
//! | `float_32`/`float_64` | `f32`/`f64` | IEEE-754 LE, bit-exact (NaN payloads kept) | [`Wire`] |
//! | enum | generated `enum` | as its storage type; non-members rejected on read | [`read_enum`] |
//! | `string[L:max]` | `String` | byte count as `L`, UTF-8 bytes | [`write_string`], [`read_string`], [`string_size`] |
//! | `T name[L:max]` | `Vec<T>` | count as `L`, elements | [`write_vec`], [`read_vec`], [`vec_size`] |
//! | `T name[N]` | `[T; N]` | `N` elements, no count | [`Wire`] for `[T; N]` |
//! | `string[SL] name[L:max]` | `Vec<String>` | count as `L`, strings | [`write_string_vec`], [`read_string_vec`], [`string_vec_size`] |
//! | `string[SL] name[N]` | `[String; N]` | `N` strings | [`write_strings`], [`read_string_array`], [`strings_size`] |
//! | message / structure | generated `struct` | members in order | [`Wire`] |
//! | union | generated `enum` | tag byte, member | [`Writer::write_tag`], [`Reader::read_tag`], [`Reader::unknown_tag`] |
//!
//! Borrowed views (`<Name>View<'a>`, [`WireView`]) decode the same bytes without copying:
//! `string` as `&'a str` ([`read_str`]), `uint_8 x[L]` as `&'a [u8]` ([`read_byte_slice`]),
//! other arrays of fixed-size elements as [`ArrayView`] ([`read_array_view`]), arrays of
//! strings and views with [`read_str_vec`], [`read_str_array`], [`read_view_vec`],
//! [`read_view_array`], nested views with [`read_view`].
//!
//! The length type `L` is given as a type parameter: `u8`, `u16`, `u32` or `u64`
//! ([`LengthPrefix`]). `max` is the declared maximum or [`NO_MAX`].
//! `uint_8 name[L:max]` held as `Vec<u8>` may use the faster [`write_byte_vec`] /
//! [`read_byte_vec`] (same bytes as `write_vec::<L, u8>`).
//!
//! # Guarantees
//!
//! * Packing never truncates: a length that does not fit its length type or exceeds its
//!   declared maximum is a [`PackError`] naming the field path.
//! * Unpacking is strict and never panics: truncated input, trailing bytes after the
//!   top-level value ([`Wire::unpack`]), unknown union tags, tag `0xFF`, lengths above the
//!   declared maximum, enum values that are not members and invalid UTF-8 are
//!   [`UnpackError`]s with an [`UnpackErrorKind`], a byte offset and a field path.
//!   A length prefix is checked against the remaining input (`count * T::MIN_SIZE` bytes)
//!   before anything is allocated.
//! * The success path does not allocate except for the values themselves (`String`,
//!   `Vec`), and [`Wire::pack`] allocates its output exactly once.
//!
//! # How generated code uses this module
//!
//! For each message/structure, union and enum the code generator emits one `impl Wire`.
//! Every member is **one call** followed by [`FieldContext::in_field`], which adds the
//! member to the error path only when there is an error (no allocation on success). Use
//! the CLAD fully-qualified name (`"Ns::Type"`, no leading `::`) as `TYPE_NAME` and the
//! schema's member names as field names.
//!
//! Per member `x` (in declaration order):
//!
//! | member | `packed_size` term | in `write_to` | in `read_from` |
//! |---|---|---|---|
//! | builtin, enum, message, structure, union, `T x[N]` | `self.x.packed_size()` | `self.x.write_to(w)` | `r.read()` |
//! | `string[L:max] x` | `wire::string_size::<L>(&self.x)` | `wire::write_string::<L>(w, &self.x, max)` | `wire::read_string::<L>(r, max)` |
//! | `T x[L:max]` | `wire::vec_size::<L, T>(&self.x)` | `wire::write_vec::<L, T>(w, &self.x, max)` | `wire::read_vec::<L, T>(r, max)` |
//! | `string[SL:smax] x[L:max]` | `wire::string_vec_size::<L, SL>(&self.x)` | `wire::write_string_vec::<L, SL>(w, &self.x, max, smax)` | `wire::read_string_vec::<L, SL>(r, max, smax)` |
//! | `string[SL:smax] x[N]` | `wire::strings_size::<SL>(&self.x)` | `wire::write_strings::<SL>(w, &self.x, smax)` | `wire::read_string_array::<SL, N>(r, smax)` |
//!
//! each write/read followed by `.in_field(Self::TYPE_NAME, "x")` (and `?`, except for a
//! last `write_to` statement). The constants:
//!
//! * `FIXED_SIZE`: `Some(n)` for fixed-size types (§3.11), otherwise `None`; messages can
//!   use [`struct_fixed_size`]`(&[<T as Wire>::FIXED_SIZE, …])` (a string or variable array
//!   member contributes `None`), unions [`union_fixed_size`].
//! * `MIN_SIZE`: §3.11 `min_size`: the sum of the members' `<T as Wire>::MIN_SIZE`, where
//!   a `string[L]` or `T[L]` member contributes `<L as Wire>::MIN_SIZE` and a string array
//!   `string[SL] x[N]` contributes `N * <SL as Wire>::MIN_SIZE`; unions use
//!   [`union_min_size`]`(&[…])`. `0` is always safe but weakens the pre-allocation check.
//!
//! Refinements the code generator makes for speed (the hand-written example below
//! leaves them out; the bytes and values are the same):
//!
//! * **Runs of fixed-size members** (two or more consecutive members whose types are
//!   fixed-size; in a union, a fixed-size member with its tag) are written and read through
//!   one [`Writer::split_off`] / [`Reader::split_off`] of the run's total size: one bounds
//!   check for the run instead of one per member. A buffer or input too short for the run
//!   is reported at the run's first byte, with the run's size as `need`.
//! * **Runs of strings** (two or more consecutive `string` members with the same length
//!   type) are read by one call, [`read_string_run`] (owned), [`read_string_run_into`] (in
//!   place) or [`read_str_run`] (views), which validates the run's UTF-8 in one pass and
//!   adds the failing member to an error's path itself; same strings and errors as the
//!   members read one by one. They are written by one call too, [`write_str_run`]: one
//!   space check for the run, the same bytes and errors as member by member.
//! * **[`Wire::read_then`]**: messages, structures and unions implement it (reading the
//!   members into locals, calling `end(r)?`, then assembling the value) and implement
//!   `read_from` as `Self::read_then(r, |_| Ok(()))`, so [`Wire::unpack`] builds the value
//!   directly where the caller wants it.
//! * **[`Wire::read_into`]** (behind [`Wire::unpack_into`]): messages, structures and unions
//!   read member by member into `&mut self` (`self.x.read_into(r)`,
//!   [`read_string_into`], [`read_vec_into`], [`read_byte_vec_into`],
//!   [`read_string_vec_into`], [`read_strings_into`]), reusing capacity; a union reads in
//!   place when it already holds the member the tag names. A union's member of variable
//!   size is read by [`read_outlined_then`] (owned) and [`read_outlined_into`] (in place), a
//!   fixed-size structure member of more than 16 bytes by [`read_member_then`]; both build
//!   the member inside the union being returned ([`Wire::read_then_wrap`], which generated
//!   messages and structures implement).
//!
//! Arrays of numbers and `bool` (`[i16; 640]`, `Vec<f32>`, and the same inside views) are
//! decoded in bulk: one length check, then one loop that is a copy on little-endian targets.
//! A truncated array is reported at its first byte with the whole array's size as `need`.
//!
//! Complete example, written as a generator would (without those refinements):
//!
//! ```
//! use clad_runtime::wire::{self, FieldContext, PackError, Reader, UnpackError, Wire, Writer};
//!
//! // enum uint_8 Color { Red = 1, Green, Blue }
//! #[derive(Clone, Copy, Debug, PartialEq, Eq)]
//! #[repr(u8)]
//! pub enum Color { Red = 1, Green = 2, Blue = 3 }
//!
//! impl Color {
//!     pub const fn from_repr(v: u8) -> Option<Self> {
//!         match v { 1 => Some(Self::Red), 2 => Some(Self::Green), 3 => Some(Self::Blue), _ => None }
//!     }
//! }
//!
//! impl Wire for Color {
//!     const TYPE_NAME: &'static str = "Color";
//!     const FIXED_SIZE: Option<usize> = Some(1);
//!     const MIN_SIZE: usize = 1;
//!     #[inline]
//!     fn packed_size(&self) -> usize { 1 }
//!     #[inline]
//!     fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
//!         (*self as u8).write_to(w)
//!     }
//!     #[inline]
//!     fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
//!         wire::read_enum(r, Self::TYPE_NAME, Self::from_repr)
//!     }
//! }
//!
//! // union Shape { Color color = 0, uint_16 side = 5 }
//! #[derive(Clone, Debug, PartialEq)]
//! pub enum Shape { Color(Color), Side(u16) }
//!
//! impl Wire for Shape {
//!     const TYPE_NAME: &'static str = "Shape";
//!     const FIXED_SIZE: Option<usize> =
//!         wire::union_fixed_size(&[<Color as Wire>::FIXED_SIZE, <u16 as Wire>::FIXED_SIZE]);
//!     const MIN_SIZE: usize =
//!         wire::union_min_size(&[<Color as Wire>::MIN_SIZE, <u16 as Wire>::MIN_SIZE]);
//!     #[inline]
//!     fn packed_size(&self) -> usize {
//!         1 + match self { Self::Color(v) => v.packed_size(), Self::Side(v) => v.packed_size() }
//!     }
//!     #[inline]
//!     fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
//!         match self {
//!             Self::Color(v) => { w.write_tag(0)?; v.write_to(w).in_field(Self::TYPE_NAME, "color") }
//!             Self::Side(v) => { w.write_tag(5)?; v.write_to(w).in_field(Self::TYPE_NAME, "side") }
//!         }
//!     }
//!     #[inline]
//!     fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
//!         match r.read_tag(Self::TYPE_NAME)? {
//!             0 => r.read().map(Self::Color).in_field(Self::TYPE_NAME, "color"),
//!             5 => r.read().map(Self::Side).in_field(Self::TYPE_NAME, "side"),
//!             tag => Err(r.unknown_tag(Self::TYPE_NAME, tag)),
//!         }
//!     }
//! }
//!
//! // message Robot { uint_32 id, string[uint_16:100] name, Shape shape }
//! #[derive(Clone, Debug, PartialEq)]
//! pub struct Robot { pub id: u32, pub name: String, pub shape: Shape }
//!
//! impl Wire for Robot {
//!     const TYPE_NAME: &'static str = "Robot";
//!     const FIXED_SIZE: Option<usize> = None;
//!     const MIN_SIZE: usize =
//!         <u32 as Wire>::MIN_SIZE + <u16 as Wire>::MIN_SIZE + <Shape as Wire>::MIN_SIZE;
//!     #[inline]
//!     fn packed_size(&self) -> usize {
//!         self.id.packed_size() + wire::string_size::<u16>(&self.name) + self.shape.packed_size()
//!     }
//!     #[inline]
//!     fn write_to(&self, w: &mut Writer<'_>) -> Result<(), PackError> {
//!         self.id.write_to(w).in_field(Self::TYPE_NAME, "id")?;
//!         wire::write_string::<u16>(w, &self.name, 100).in_field(Self::TYPE_NAME, "name")?;
//!         self.shape.write_to(w).in_field(Self::TYPE_NAME, "shape")
//!     }
//!     #[inline]
//!     fn read_from(r: &mut Reader<'_>) -> Result<Self, UnpackError> {
//!         Ok(Self {
//!             id: r.read().in_field(Self::TYPE_NAME, "id")?,
//!             name: wire::read_string::<u16>(r, 100).in_field(Self::TYPE_NAME, "name")?,
//!             shape: r.read().in_field(Self::TYPE_NAME, "shape")?,
//!         })
//!     }
//! }
//!
//! let robot = Robot { id: 7, name: "vec".into(), shape: Shape::Color(Color::Blue) };
//! let bytes = robot.pack().unwrap();
//! assert_eq!(bytes, [7, 0, 0, 0, 3, 0, b'v', b'e', b'c', 0, 3]);
//! assert_eq!(Robot::unpack(&bytes).unwrap(), robot);
//!
//! // Errors name the field path and the byte offset.
//! let err = Robot::unpack(&bytes[..8]).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "truncated input at byte 6 while reading Robot.name: need 3 bytes, 2 left"
//! );
//! let err = Robot::unpack(&[7, 0, 0, 0, 0, 0, 0, 9]).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "invalid enum value at byte 7 while reading Robot.shape.color: 9 is not a member of Color"
//! );
//! let long = Robot { name: "x".repeat(101), ..robot };
//! assert_eq!(
//!     long.pack().unwrap_err().to_string(),
//!     "length above declared maximum at byte 4 while packing Robot.name: \
//!      string of 101 bytes, declared maximum is 100"
//! );
//! ```
//!
//! A `String`/`Vec` member of a union uses the helpers the same way, e.g.
//! `3 => wire::read_string::<u8>(r, wire::NO_MAX).map(Self::Name).in_field(Self::TYPE_NAME, "name")`
//! and `wire::string_size::<u8>(v)` in `packed_size`. A generated union type that can hold
//! the INVALID state should return [`PackError::invalid_union`] from `write_to` for it.

mod array;
mod budget;
mod enum_value;
mod error;
mod fixed;
mod length;
mod reader;
mod size;
mod string;
mod traits;
mod union_member;
mod view;
mod writer;

pub use array::{
    read_byte_vec, read_byte_vec_into, read_string_array, read_string_vec, read_string_vec_into,
    read_strings_into, read_vec, read_vec_into, string_vec_size, strings_size, vec_size,
    write_byte_vec, write_string_vec, write_strings, write_vec,
};
pub use enum_value::read_enum;
pub use error::{
    FieldContext, FieldPath, PackError, PackErrorKind, PathSegment, SeqKind, UnpackError,
    UnpackErrorKind,
};
pub use length::{write_len, MAX_ZERO_SIZED_ELEMENTS, NO_MAX};
pub use reader::{Reader, INVALID_TAG};
pub use size::{struct_fixed_size, union_fixed_size, union_min_size};
pub use string::{
    read_str, read_str_run, read_string, read_string_into, read_string_run, read_string_run_into,
    string_size, write_str_run, write_string,
};
pub use traits::{LengthPrefix, Wire};
pub use union_member::{
    read_member_then, read_outlined, read_outlined_into, read_outlined_then, write_outlined,
};
pub use view::{
    read_array_view, read_byte_slice, read_str_array, read_str_vec, read_view, read_view_array,
    read_view_vec, ArrayView, ArrayViewIter, HasView, WireView,
};
pub use writer::Writer;
