//! Union members of variable size, read and written out of line so the union's own code
//! stays small enough to inline, and members built inside the union being returned.

use super::error::{PackError, UnpackError};
use super::reader::Reader;
use super::traits::Wire;
use super::writer::Writer;

/// `value.write_to(w)` through a call that is never inlined. Generated unions write their
/// members of variable size (structures with strings or arrays) this way, so that the
/// union's own `write_to` stays small: inlined where it is called, a fixed-size member
/// (the common small command) is a handful of stores instead of a call into one large
/// function that saves every register first.
#[inline(never)]
pub fn write_outlined<T: Wire>(value: &T, w: &mut Writer<'_>) -> Result<(), PackError> {
    value.write_to(w)
}

/// `T::read_from(r)` through a call that is never inlined (see [`write_outlined`]).
#[inline(never)]
pub fn read_outlined<T: Wire>(r: &mut Reader<'_>) -> Result<T, UnpackError> {
    T::read_from(r)
}

/// `value.read_into(r)` through a call that is never inlined (see [`write_outlined`]).
#[inline(never)]
pub fn read_outlined_into<T: Wire>(value: &mut T, r: &mut Reader<'_>) -> Result<(), UnpackError> {
    value.read_into(r)
}

/// Reads the union member `T` named `field` of the union `type_name`, runs `end` after its
/// last byte, and returns it wrapped by `wrap` (the union's variant constructor), adding the
/// member to the path of the member's own errors (not to an error of `end`).
///
/// The member is decoded in place, where the union is returned
/// ([`Wire::read_then_wrap`]): a member returned on its own would then be copied into the
/// union, reading back the bytes its decode has just written.
/// Generated unions read their fixed-size structure members of more than 16 bytes this way.
#[inline]
pub fn read_member_then<T, U, F>(
    r: &mut Reader<'_>,
    end: F,
    wrap: impl FnOnce(T) -> U,
    type_name: &'static str,
    field: &'static str,
) -> Result<U, UnpackError>
where
    T: Wire,
    F: FnOnce(&Reader<'_>) -> Result<(), UnpackError>,
{
    let mut end_failed = false;
    // `map_err`, not a `match` or an `if let` on a kept `Result`: through those the compiler
    // kept the `Result` in a temporary and copied all of it out (measured: the 109-byte
    // member 9 -> 15 ns).
    T::read_then_wrap(r, |r| end(r).inspect_err(|_| end_failed = true), wrap).map_err(|e| {
        if end_failed {
            e
        } else {
            e.in_field(type_name, field)
        }
    })
}

/// [`read_member_then`] through a call that is never inlined (see [`write_outlined`]):
/// generated unions read their members of variable size this way.
#[inline(never)]
pub fn read_outlined_then<T, U, F>(
    r: &mut Reader<'_>,
    end: F,
    wrap: impl FnOnce(T) -> U,
    type_name: &'static str,
    field: &'static str,
) -> Result<U, UnpackError>
where
    T: Wire,
    F: FnOnce(&Reader<'_>) -> Result<(), UnpackError>,
{
    read_member_then(r, end, wrap, type_name, field)
}
