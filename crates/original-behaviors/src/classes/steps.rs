//! [`Steps`]: what a native class does once it has decided, as a list of timed steps
//! (animations, speech, a head move, delegation to a behavior) run one after the other
//! through the runner's continuations. A delegate that does not want to run is skipped (as
//! the original's `DelegateIfInControl` after a `WantsToBeActivated` check); the class ends
//! itself when the list is done (its AD-end or self-cancel).

use robot_runtime::behavior::{ActionRequest, BehaviorId, Continuation, Ctx, IntentUnion};

/// One step.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Play an animation trigger once.
    Play(String),
    /// Say a text.
    Say(String),
    /// Move the head to this angle (degrees).
    Head(f32),
    /// Delegate this behavior, if it wants to run.
    Delegate(BehaviorId),
}

/// The continuation step number [`Steps`] uses (a class with other continuations picks
/// others).
pub(crate) const STEP: u32 = 0;

/// A list of steps being run (see the [module documentation](self)).
#[derive(Clone, Debug, Default)]
pub struct Steps {
    list: Vec<Step>,
    at: usize,
}

impl Steps {
    /// Runs `list` from its start.
    pub fn start<U: IntentUnion, E: 'static>(&mut self, list: Vec<Step>, ctx: &mut Ctx<'_, U, E>) {
        self.list = list;
        self.at = 0;
        self.next(ctx);
    }

    /// Starts the next step that can start; none left: ends the class.
    pub fn next<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if !self.advance(ctx) {
            let _ = ctx.cancel_self();
        }
    }

    /// Starts the next step that can start; false when none is left (the caller decides
    /// what follows).
    pub fn advance<U: IntentUnion, E: 'static>(&mut self, ctx: &mut Ctx<'_, U, E>) -> bool {
        let cont = Continuation::Call(STEP);
        while let Some(step) = self.list.get(self.at) {
            self.at += 1;
            let started = match step {
                Step::Play(name) => ctx
                    .play(&ActionRequest::Animation { name, loops: 1 }, cont)
                    .is_ok(),
                Step::Say(text) => ctx.play(&ActionRequest::Speech { text }, cont).is_ok(),
                Step::Head(degrees) => ctx
                    .play(&ActionRequest::MoveHead { degrees: *degrees }, cont)
                    .is_ok(),
                Step::Delegate(id) => {
                    ctx.wants_to_activate(*id) && ctx.delegate_if_in_control(*id, cont).is_ok()
                }
            };
            if started {
                return true;
            }
        }
        false
    }

    /// Forgets the list.
    pub fn clear(&mut self) {
        self.list.clear();
        self.at = 0;
    }
}
