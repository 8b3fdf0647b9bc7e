//! Resources: what behavior actions and mission capabilities need exclusively (base, arms, head, speech, screen, ...). The
//! robot defines them as an enum implementing [`Resource`]; sets are bit masks.

use std::fmt;
use std::marker::PhantomData;

/// A robot resource. Implemented by a robot-defined enum of at most 64 members.
///
/// ```
/// use robot_runtime::arbiter::{Resource, ResourceSet};
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq)]
/// enum Res { Base, Head, Speech }
///
/// impl Resource for Res {
///     const ALL: &'static [Res] = &[Res::Base, Res::Head, Res::Speech];
///     fn index(self) -> u8 { self as u8 }
/// }
///
/// let guide = ResourceSet::of(&[Res::Base, Res::Speech]);
/// assert!(guide.intersects(ResourceSet::of(&[Res::Speech])));
/// assert_eq!(guide.iter().collect::<Vec<_>>(), [Res::Base, Res::Speech]);
/// ```
pub trait Resource: Copy + Eq + fmt::Debug + 'static {
    /// Every resource.
    const ALL: &'static [Self];
    /// A distinct index below 64 (the bit in a [`ResourceSet`]).
    fn index(self) -> u8;
}

/// A set of resources (a 64-bit mask; intersection is one AND).
pub struct ResourceSet<R> {
    bits: u64,
    _r: PhantomData<fn() -> R>,
}

impl<R> Clone for ResourceSet<R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<R> Copy for ResourceSet<R> {}
impl<R> PartialEq for ResourceSet<R> {
    fn eq(&self, other: &Self) -> bool {
        self.bits == other.bits
    }
}
impl<R> Eq for ResourceSet<R> {}
impl<R> Default for ResourceSet<R> {
    fn default() -> Self {
        ResourceSet::EMPTY
    }
}

impl<R> ResourceSet<R> {
    /// The empty set.
    pub const EMPTY: ResourceSet<R> = ResourceSet {
        bits: 0,
        _r: PhantomData,
    };

    /// The raw mask.
    pub fn bits(self) -> u64 {
        self.bits
    }

    /// The set of a raw mask ([`bits`](Self::bits) of a set of the same resource type: what
    /// crosses the behavior runner, which does not know the type, as
    /// [`LockedParts`](crate::behavior::LockedParts)).
    pub fn from_bits(bits: u64) -> ResourceSet<R> {
        ResourceSet {
            bits,
            _r: PhantomData,
        }
    }

    /// True when no resource is in the set.
    pub fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// True when the sets share a resource.
    #[inline]
    pub fn intersects(self, other: ResourceSet<R>) -> bool {
        self.bits & other.bits != 0
    }

    /// The union.
    pub fn union(self, other: ResourceSet<R>) -> ResourceSet<R> {
        ResourceSet {
            bits: self.bits | other.bits,
            _r: PhantomData,
        }
    }

    /// The resources of `self` not in `other`.
    pub fn difference(self, other: ResourceSet<R>) -> ResourceSet<R> {
        ResourceSet {
            bits: self.bits & !other.bits,
            _r: PhantomData,
        }
    }

    /// The shared resources.
    pub fn intersection(self, other: ResourceSet<R>) -> ResourceSet<R> {
        ResourceSet {
            bits: self.bits & other.bits,
            _r: PhantomData,
        }
    }
}

impl<R: Resource> ResourceSet<R> {
    /// The set of `resources`. An index of 64 or more is ignored (and logged): such a
    /// resource cannot be tracked.
    pub fn of(resources: &[R]) -> ResourceSet<R> {
        resources.iter().fold(ResourceSet::EMPTY, |s, r| s.with(*r))
    }

    /// The set plus `r`.
    pub fn with(self, r: R) -> ResourceSet<R> {
        let i = r.index();
        if i >= 64 {
            tracing::error!(resource = ?r, index = i, "resource index out of range (0..64); ignored");
            return self;
        }
        ResourceSet {
            bits: self.bits | (1 << i),
            _r: PhantomData,
        }
    }

    /// True when `r` is in the set.
    pub fn contains(self, r: R) -> bool {
        r.index() < 64 && self.bits & (1 << r.index()) != 0
    }

    /// The members, in [`Resource::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = R> {
        R::ALL.iter().copied().filter(move |r| self.contains(*r))
    }
}

impl<R: Resource> fmt::Debug for ResourceSet<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}
