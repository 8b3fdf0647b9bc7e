//! Enum values on the wire: read as their storage type, then checked against the members.

use super::error::UnpackError;
#[cfg(doc)]
use super::error::UnpackErrorKind;
use super::reader::Reader;
use super::traits::Wire;

/// Reads an enum stored as `S` and converts it with `from_repr`; a value that is not a
/// member (`from_repr` returns `None`) is an [`UnpackErrorKind::InvalidEnum`] error naming
/// `type_name`, at the value's offset.
#[inline]
pub fn read_enum<S, E>(
    r: &mut Reader<'_>,
    type_name: &'static str,
    from_repr: impl FnOnce(S) -> Option<E>,
) -> Result<E, UnpackError>
where
    S: Wire + Copy + Into<i128>,
{
    let at = r.position();
    let raw = S::read_from(r)?;
    match from_repr(raw) {
        Some(value) => Ok(value),
        None => Err(UnpackError::invalid_enum(type_name, raw.into(), at)),
    }
}
