//! [`StandIn`]: what runs for a class of the original engine this crate does not implement,
//! when the tree is loaded with stand-ins (`LoadOptions::stand_ins`; the class is registered
//! as a stand-in, so without them it is a load error). Its keys are kept (and its behavior
//! references resolved through the class's reference keys, `catalog::REFERENCE_KEYS`), and
//! it acts with these documented default semantics:
//!
//! * A class whose reference table has a `delegateID` (the coordinators built on
//!   `DispatcherPassThrough`, `SleepCycle`) acts as a pass-through: its delegate is linked
//!   scope, it wants to run when the delegate does, delegates to it on activation and ends
//!   with it.
//! * Any other class wants to run when its `wantsToBeActivatedCondition` holds and, with
//!   `respondToUserIntents`, when a listed intent is pending (the runner claims it on
//!   activation). One with neither does not want to run, unless the load options say so
//!   (`StandIns::unconditioned_want`): the original's class predicate lives in code this
//!   runtime does not have. Once active it runs a simulated action for the class (its
//!   length from the robot's duration table by class name, 2 s by default) and ends.
//!
//! Every activation gate is open unless its JSON `behaviorModifiers` close one; it always
//! delegates. Its other references are declared delegates (so scope and exports see them)
//! but never delegated to.

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, Continuation, Ctx, OperationModifiers,
    Resolution, View, Wakeup, Watch,
};
use robot_runtime::intent::IntentUnion;

/// A stand-in (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct StandIn {
    class: Box<str>,
    pass_through: Option<BehaviorId>,
    delegates: Vec<BehaviorId>,
    wants: bool,
}

impl StandIn {
    /// A stand-in for `class`: passing through to `pass_through` if given, declaring
    /// `delegates`; `wants`: whether it wants to run when its declared conditions hold
    /// (false for one with no condition and no intents, unless configured).
    pub fn new(
        class: &str,
        pass_through: Option<BehaviorId>,
        delegates: Vec<BehaviorId>,
        wants: bool,
    ) -> Self {
        Self {
            class: class.into(),
            pass_through,
            delegates,
            wants,
        }
    }
    /// The original class it stands in for.
    pub fn class(&self) -> &str {
        &self.class
    }
}

impl<U: IntentUnion, E: 'static> Behavior<U, E> for StandIn {
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn delegates(&self) -> Vec<BehaviorId> {
        self.delegates.clone()
    }
    fn linked_scope(&self) -> Vec<BehaviorId> {
        self.pass_through.into_iter().collect()
    }
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.always_delegates = true;
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        match self.pass_through {
            Some(d) => view.wants_to_activate(d),
            None => self.wants,
        }
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        Some(match self.pass_through {
            Some(d) => view.activation_watch(d),
            None => Watch::CONSTANT,
        })
    }
    /// Its work is an action, or its pass-through delegate.
    fn next_wakeup(&self, _view: &View<'_, U, E>) -> Wakeup {
        Wakeup::Never
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        match self.pass_through {
            Some(d) => {
                if ctx.wants_to_activate(d) {
                    let _ = ctx.delegate_if_in_control(d, Continuation::None);
                }
            }
            None => {
                let req = ActionRequest::StandIn { class: &self.class };
                let _ = ctx.play(&req, Continuation::None);
            }
        }
    }
}

/// Builds the stand-in for the instance's class: its reference keys resolved (a
/// global-only `delegateID` is its pass-through), its class keys kept as they are; it
/// wants to run when its declared conditions hold, or always when `unconditioned_want`.
pub(crate) fn build<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    unconditioned_want: bool,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = cx.reference_keys();
    let pass = cx
        .resolve_reference_keys(keys)
        .into_iter()
        .find(|(k, _)| k.key == "delegateID" && k.resolution == Resolution::GlobalOnly)
        .map(|(_, id)| id);
    let wants = unconditioned_want || cx.has_activation_conditions();
    cx.keep_raw_params();
    Some(Box::new(StandIn::new(
        cx.class(),
        pass,
        cx.declared_delegates().to_vec(),
        wants,
    )))
}
