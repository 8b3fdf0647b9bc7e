//! The runner's change stamps (see [`wakeup`](super::wakeup)): a revision counter bumped on
//! every change of an input (the robot state per field, the intent component, the stack),
//! and per input the revision of its last change. A cached answer is valid while none of the
//! inputs it read was stamped after it was computed.

use super::robot_state::RobotState;
use super::wakeup::Inputs;

/// The runner's change stamps (see [`wakeup`](super::wakeup)): a revision counter,
/// and per input the revision of its last change.
pub(crate) struct Changes {
    /// Bumped on every recorded change.
    pub rev: u64,
    /// Per input bit, the revision of its last change.
    at: [u64; 64],
    /// The robot state was borrowed mutably since it was last compared with `seen`: until it
    /// is, every robot input counts as changed.
    robot_touched: bool,
    /// The robot state as of the last comparison.
    seen: Box<RobotState>,
}

impl Changes {
    pub fn new(robot: &RobotState) -> Self {
        Self {
            rev: 1,
            at: [0; 64],
            robot_touched: false,
            seen: Box::new(robot.clone()),
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

    /// The robot state is about to be changed through a mutable borrow. Every borrow is a
    /// new revision: an answer computed between two borrows predates the second.
    #[inline]
    pub fn touch_robot(&mut self) {
        self.robot_touched = true;
        self.rev += 1;
    }

    /// Compares the robot state with the last copy (after a mutable borrow) and stamps the
    /// fields that changed.
    #[inline]
    pub fn sync_robot(&mut self, robot: &RobotState) {
        if self.robot_touched {
            self.sync_robot_slow(robot);
        }
    }

    #[inline(never)]
    fn sync_robot_slow(&mut self, robot: &RobotState) {
        self.robot_touched = false;
        let changed = robot.changed_inputs(&self.seen);
        if !changed.is_empty() {
            // Stamped with the revision of the borrow: an answer computed after the borrow
            // (it saw the new values) stays valid, one computed before does not.
            let rev = self.rev;
            let mut b = changed.bits();
            while b != 0 {
                self.at[b.trailing_zeros() as usize] = rev;
                b &= b - 1;
            }
            (*self.seen).clone_from(robot);
        }
    }
}
