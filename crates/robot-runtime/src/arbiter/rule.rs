//! The arbitration rule, as a pure function over the current claims (the benchmarked hot
//! path: no allocation beyond the caller's reused buffer). The [`Arbiter`](super::Arbiter)
//! applies it to its table; the mission controller and behavior actions both go through it.
//!
//! A candidate conflicts with a claim when they share a resource or belong to the same
//! group (a mission capability runs one request at a time). Against each conflicting claim:
//!
//! 1. a claim that is already halting is going away: the candidate waits for it;
//! 2. a higher priority (the intent's) wins;
//! 3. equal priorities: the higher capability rank ([`CapabilityPolicy::rank`](crate::mission::CapabilityPolicy::rank)) wins;
//! 4. equal ranks: arrival order — the earlier claim keeps its resources;
//! 5. a claim whose capability is not preemptible is never beaten.
//!
//! If the candidate beats every conflicting claim it preempts them all (halt before start);
//! otherwise it waits or is refused, as its client's policy says (a mission capability's
//! [`WhenBusy`](crate::mission::WhenBusy), a behavior action's
//! [`WhenBlocked`](super::WhenBlocked)).

use super::resource::{Resource, ResourceSet};
use crate::hri::Priority;

/// Who holds (or wants) resources: a mission request (its `RequestId`'s number) or a
/// behavior's claim (numbered by the arbiter): one of its actions, or the lock of its
/// `tracksToLockWhileActivated`. Arrival order within a kind is the number's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Holder {
    /// A mission controller request.
    Mission(u64),
    /// A behavior's claim: an action's, or its track lock's.
    Action(u64),
}

/// A request that holds or reserves resources, or wants them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim<R: Resource> {
    /// Who.
    pub holder: Holder,
    /// Claims of the same group conflict whatever their resources (a mission capability's
    /// id: one request per capability at a time). `None`: no group.
    pub group: Option<u32>,
    /// The resources.
    pub resources: ResourceSet<R>,
    /// Its priority.
    pub priority: Priority,
    /// Its capability's rank.
    pub rank: u8,
    /// Whether it can be preempted.
    pub preemptible: bool,
    /// It is already halting (its resources are about to be released).
    pub halting: bool,
}

/// The arbiter's verdict; the claims involved are written to the caller's buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No conflict.
    Grant,
    /// Beats every conflicting claim (listed in the buffer).
    Preempt,
    /// Loses to at least one conflicting claim (the winners are listed in the buffer).
    Blocked,
}

/// True when `candidate` outranks `holder` (rules 2–5 of the module documentation).
#[inline]
pub fn outranks<R: Resource>(candidate: &Claim<R>, holder: &Claim<R>) -> bool {
    holder.halting
        || (holder.preemptible
            && (candidate.priority, candidate.rank) > (holder.priority, holder.rank))
}

/// Decides `candidate` against `claims`. `involved` is cleared, then receives the
/// conflicting claims for [`Verdict::Preempt`] and the winning ones for [`Verdict::Blocked`].
pub fn decide<R: Resource>(
    claims: &[Claim<R>],
    candidate: &Claim<R>,
    involved: &mut Vec<Holder>,
) -> Verdict {
    involved.clear();
    let mut blocked = false;
    for c in claims {
        let conflicts = c.holder != candidate.holder
            && ((c.group.is_some() && c.group == candidate.group)
                || c.resources.intersects(candidate.resources));
        if !conflicts {
            continue;
        }
        let beaten = outranks(candidate, c);
        if !beaten && !blocked {
            // From now on only the winners are collected.
            blocked = true;
            involved.clear();
        }
        if beaten != blocked {
            involved.push(c.holder);
        }
    }
    if blocked {
        Verdict::Blocked
    } else if involved.is_empty() {
        Verdict::Grant
    } else {
        Verdict::Preempt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Res {
        Base,
        Head,
        Speech,
    }
    impl Resource for Res {
        const ALL: &'static [Res] = &[Res::Base, Res::Head, Res::Speech];
        fn index(self) -> u8 {
            self as u8
        }
    }

    fn claim(id: u64, cap: u32, res: &[Res], prio: u8) -> Claim<Res> {
        Claim {
            holder: Holder::Mission(id),
            group: Some(cap),
            resources: ResourceSet::of(res),
            priority: Priority(prio),
            rank: 0,
            preemptible: true,
            halting: false,
        }
    }

    #[test]
    fn grant_preempt_and_block() {
        let mut buf = Vec::new();
        let holders = [
            claim(1, 0, &[Res::Base], 128),
            claim(2, 1, &[Res::Speech], 200),
        ];
        assert_eq!(
            decide(&holders, &claim(3, 2, &[Res::Head], 10), &mut buf),
            Verdict::Grant
        );
        assert!(buf.is_empty());
        assert_eq!(
            decide(&holders, &claim(3, 2, &[Res::Base], 255), &mut buf),
            Verdict::Preempt
        );
        assert_eq!(buf, [Holder::Mission(1)]);
        assert_eq!(
            decide(
                &holders,
                &claim(3, 2, &[Res::Base, Res::Speech], 150),
                &mut buf
            ),
            Verdict::Blocked
        );
        assert_eq!(buf, [Holder::Mission(2)]);
    }

    #[test]
    fn ties_go_to_rank_then_arrival_and_safety_is_never_preempted() {
        let mut buf = Vec::new();
        let holder = claim(1, 0, &[Res::Base], 128);
        let mut same = claim(2, 1, &[Res::Base], 128);
        assert_eq!(decide(&[holder], &same, &mut buf), Verdict::Blocked);
        same.rank = 1;
        assert_eq!(decide(&[holder], &same, &mut buf), Verdict::Preempt);
        let safety = Claim {
            preemptible: false,
            ..holder
        };
        let top = claim(3, 1, &[Res::Base], 255);
        assert_eq!(decide(&[safety], &top, &mut buf), Verdict::Blocked);
        let halting = Claim {
            halting: true,
            priority: Priority(255),
            ..holder
        };
        assert_eq!(
            decide(&[halting], &claim(4, 1, &[Res::Base], 0), &mut buf),
            Verdict::Preempt
        );
    }

    #[test]
    fn same_capability_conflicts_without_resources() {
        let mut buf = Vec::new();
        let holder = claim(1, 7, &[], 128);
        assert_eq!(
            decide(&[holder], &claim(2, 7, &[], 100), &mut buf),
            Verdict::Blocked
        );
        assert_eq!(
            decide(&[holder], &claim(2, 8, &[], 100), &mut buf),
            Verdict::Grant
        );
    }
}
