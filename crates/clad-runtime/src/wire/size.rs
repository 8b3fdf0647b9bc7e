//! `const fn`s for the size constants of generated types ([`Wire::FIXED_SIZE`],
//! [`Wire::MIN_SIZE`]).

#[cfg(doc)]
use super::traits::Wire;

/// [`Wire::FIXED_SIZE`] of a message/structure from its members' fixed sizes: the sum when
/// every member is fixed-size, `None` otherwise. `&[]` (empty message) gives `Some(0)`.
pub const fn struct_fixed_size(members: &[Option<usize>]) -> Option<usize> {
    let mut total = 0;
    let mut i = 0;
    while i < members.len() {
        match members[i] {
            Some(size) => total += size,
            None => return None,
        }
        i += 1;
    }
    Some(total)
}

/// [`Wire::FIXED_SIZE`] of a union from its members' fixed sizes: `1 + size` when every
/// member is fixed-size and all sizes are equal, `None` otherwise.
pub const fn union_fixed_size(members: &[Option<usize>]) -> Option<usize> {
    let mut common: Option<usize> = None;
    let mut i = 0;
    while i < members.len() {
        match (members[i], common) {
            (None, _) => return None,
            (Some(size), None) => common = Some(size),
            (Some(size), Some(c)) if size == c => {}
            (Some(_), Some(_)) => return None,
        }
        i += 1;
    }
    match common {
        Some(size) => Some(1 + size),
        None => Some(1),
    }
}

/// [`Wire::MIN_SIZE`] of a union from its members' minimum sizes: `1 + min`.
pub const fn union_min_size(members: &[usize]) -> usize {
    let mut min = usize::MAX;
    let mut i = 0;
    while i < members.len() {
        if members[i] < min {
            min = members[i];
        }
        i += 1;
    }
    if members.is_empty() {
        1
    } else {
        1 + min
    }
}
