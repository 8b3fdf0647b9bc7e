//! The runner's change stamps (see [`wakeup`](super::wakeup)): a revision counter bumped on
//! every change of an input (the world per field, the intent component, the stack),
//! and per input the revision of its last change. A cached answer is valid while none of the
//! inputs it read was stamped after it was computed.

use super::wakeup::{Inputs, Wakeup, Watch};
use super::world::World;

/// The runner's change stamps (see [`wakeup`](super::wakeup)): a revision counter,
/// and per input the revision of its last change.
pub(crate) struct Changes {
    /// Bumped on every recorded change.
    pub rev: u64,
    /// Per input bit, the revision of its last change.
    at: [u64; 64],
    /// The world was borrowed mutably since it was last compared with `seen`: until it is,
    /// every world input counts as changed.
    world_touched: bool,
    /// The world as of the last comparison.
    seen: Box<dyn World>,
}

impl Changes {
    pub fn new(world: &dyn World) -> Self {
        Self {
            rev: 1,
            at: [0; 64],
            world_touched: false,
            seen: world.clone_world(),
        }
    }

    /// Records a change of `inputs` now.
    pub fn stamp(&mut self, inputs: Inputs) {
        self.rev += 1;
        let mut b = inputs.bits();
        while b != 0 {
            self.at[b.trailing_zeros() as usize] = self.rev;
            b &= b - 1;
        }
    }

    /// The world is about to be changed through a mutable borrow. Every borrow is a new
    /// revision: an answer computed between two borrows predates the second.
    #[inline]
    pub fn touch_world(&mut self) {
        self.world_touched = true;
        self.rev += 1;
    }

    /// Compares the world with the last copy (after a mutable borrow) and stamps the fields
    /// that changed. Called at the start of each tick: until then, every answer that reads
    /// the world counts as changed (see [`holds`](Self::holds)), so a change a hook makes is
    /// seen at once.
    #[inline]
    pub fn sync_world(&mut self, world: &dyn World) {
        if self.world_touched {
            self.sync_world_slow(world);
        }
    }

    #[inline(never)]
    fn sync_world_slow(&mut self, world: &dyn World) {
        self.world_touched = false;
        let changed = world.changed_inputs(&*self.seen);
        if !changed.is_empty() {
            // Stamped with the revision of the borrow: an answer computed after the borrow
            // (it saw the new values) stays valid, one computed before does not.
            let rev = self.rev;
            let mut b = changed.bits();
            while b != 0 {
                self.at[b.trailing_zeros() as usize] = rev;
                b &= b - 1;
            }
            world.clone_into_world(&mut self.seen);
        }
    }

    /// The revision of the last change of any of `inputs` (0: none yet), for tools. A
    /// world field changed through a mutable borrow and not compared yet (that happens at
    /// the start of the next tick) counts as changed at the current revision.
    pub fn last_change(&self, inputs: Inputs, world: &dyn World) -> u64 {
        let mut last = 0;
        let mut b = inputs.bits();
        while b != 0 {
            last = last.max(self.at[b.trailing_zeros() as usize]);
            b &= b - 1;
        }
        if self.world_touched
            && inputs.intersects(Inputs::WORLD)
            && world.changed_inputs(&*self.seen).intersects(inputs)
        {
            last = self.rev;
        }
        last
    }

    /// The inputs that changed after revision `since`, for tools; a world field changed
    /// through a mutable borrow and not compared yet counts.
    pub fn changed_since(&self, since: u64, world: &dyn World) -> Inputs {
        let mut changed = Inputs::NONE;
        for (b, &at) in self.at.iter().enumerate() {
            if at > since {
                changed |= Inputs::from_bit(b);
            }
        }
        if self.world_touched {
            changed |= world.changed_inputs(&*self.seen);
        }
        changed
    }

    /// True while `c` still holds at `now_ns`: its time has not come and none of its
    /// inputs changed since it was computed. A confirmation is remembered (`c.rev` moves
    /// to the current revision), so the next check of an unchanged runner is one compare.
    #[inline]
    pub fn holds(&self, c: &mut Cached, now_ns: u64) -> bool {
        if now_ns >= c.until_ns {
            return false;
        }
        if c.rev == self.rev {
            return true;
        }
        if self.changed_since_slow(c.inputs, c.rev) {
            return false;
        }
        c.rev = self.rev;
        true
    }

    #[inline(never)]
    fn changed_since_slow(&self, inputs: Inputs, since: u64) -> bool {
        if self.world_touched && inputs.intersects(Inputs::WORLD) {
            return true;
        }
        let mut b = inputs.bits();
        while b != 0 {
            if self.at[b.trailing_zeros() as usize] > since {
                return true;
            }
            b &= b - 1;
        }
        false
    }
}

/// A cached answer: its value, the revision it was computed (or last confirmed) at, and its
/// [`Watch`] (`until` in nanoseconds of virtual time, see `Wakeup::until_ns`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cached {
    pub value: bool,
    /// The class of the behavior does not declare its activation watch: never cached, and
    /// not worth computing a watch for again.
    pub undeclared: bool,
    pub rev: u64,
    pub inputs: Inputs,
    pub until_ns: u64,
}

impl Cached {
    /// Never valid.
    pub const NONE: Cached = Cached {
        value: false,
        undeclared: false,
        rev: 0,
        inputs: Inputs::ALL,
        until_ns: 0,
    };

    pub fn new(value: bool, rev: u64, watch: Watch) -> Self {
        Self {
            value,
            undeclared: false,
            rev,
            inputs: watch.inputs,
            until_ns: watch.until.until_ns(),
        }
    }

    pub fn watch(&self) -> Watch {
        Watch {
            inputs: self.inputs,
            until: Wakeup::from_until_ns(self.until_ns),
        }
    }
}
