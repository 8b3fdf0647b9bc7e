//! Simple timed motions (spec §4.4) through the action layer: `MoveHeadToAngle`
//! (`headAngle_deg`, required; every gate open), `Turn` (`shouldTurnClockwise`,
//! `turnDegrees`, both required: a point turn by −deg if clockwise, else +deg; base gates),
//! each ending with its action; and `PutDownBlock`, the behavior HighLevelAI's put-down step
//! names: it wants to run while the robot carries an object, puts it down (an animation
//! action named `PutDownBlock`) and clears "carrying" when that succeeds.

use robot_runtime::behavior::{
    ActionEnd, ActionRequest, Behavior, BehaviorId, BuildCx, Continuation, Ctx, DelegationOutcome,
    OperationModifiers, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentUnion;

use crate::access::{RobotAccess, RobotAccessMut};

/// `MoveHeadToAngle`.
#[derive(Clone, Debug)]
pub struct MoveHeadToAngle {
    degrees: f32,
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for MoveHeadToAngle {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Its motion is an action.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.allow_everywhere();
        m.always_delegates = true;
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let _ = ctx.play(
            &ActionRequest::MoveHead {
                degrees: self.degrees,
            },
            Continuation::None,
        );
    }
}

pub(crate) fn build_move_head<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let d = cx.req_f64("headAngle_deg")?;
    Some(Box::new(MoveHeadToAngle { degrees: d as f32 }))
}

/// `Turn`.
#[derive(Clone, Debug)]
pub struct Turn {
    degrees: f32,
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for Turn {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Its motion is an action.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let _ = ctx.play(
            &ActionRequest::Turn {
                degrees: self.degrees,
            },
            Continuation::None,
        );
    }
}

pub(crate) fn build_turn<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let cw = cx.req_bool("shouldTurnClockwise");
    let deg = cx.req_f64("turnDegrees");
    let (cw, deg) = (cw?, deg? as f32);
    Some(Box::new(Turn {
        degrees: if cw { -deg } else { deg },
    }))
}

/// `PutDownBlock` (see the [module documentation](self)).
#[derive(Clone, Debug, Default)]
pub struct PutDownBlock;

const PUT_DOWN: u32 = 1;

impl<U: IntentUnion, E: 'static> Behavior<U, E> for PutDownBlock {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(crate::inputs::CARRYING))
    }
    /// Its put-down is an action.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.when_carrying = true;
        m.always_delegates = true;
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        view.robot().carrying_object
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let req = ActionRequest::Animation {
            name: "PutDownBlock",
            loops: 1,
        };
        let _ = ctx.play(&req, Continuation::Call(PUT_DOWN));
    }
    fn on_delegation_done(
        &mut self,
        _step: u32,
        outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        if outcome == DelegationOutcome::Action(ActionEnd::Succeeded) {
            ctx.robot_mut().carrying_object = false;
        }
    }
}

pub(crate) fn build_put_down_block<U: IntentUnion, E: 'static>(
    _cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    Some(Box::new(PutDownBlock))
}
