//! Fixed-length arrays (`T x[N]`) read element by element into `[T; N]` without requiring
//! `T: Default` and without allocating: the one loop shared by owned values, strings and
//! views.

use super::error::UnpackError;
use super::reader::Reader;

/// Reads `N` elements with `read_one` into an array, without requiring `T: Default` and
/// without allocating. Element errors get the element index in their path.
#[inline]
pub(super) fn read_fixed_with<'a, T, const N: usize>(
    r: &mut Reader<'a>,
    mut read_one: impl FnMut(&mut Reader<'a>) -> Result<T, UnpackError>,
) -> Result<[T; N], UnpackError> {
    let mut error = None;
    let items: [Option<T>; N] = core::array::from_fn(|i| {
        if error.is_some() {
            return None;
        }
        match read_one(r) {
            Ok(v) => Some(v),
            Err(e) => {
                error = Some(e.in_index(i));
                None
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    // No error was recorded, so every slot was filled.
    Ok(items.map(|item| match item {
        Some(v) => v,
        None => unreachable!("every element was read"),
    }))
}
