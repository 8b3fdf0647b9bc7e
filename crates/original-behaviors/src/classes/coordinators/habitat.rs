//! `ConfirmHabitat` ([`ConfirmHabitat`]).

use robot_runtime::behavior::{
    ActionRequest, Behavior, BehaviorId, BuildCx, ClassPredicate, Condition, Continuation, Ctx,
    DelegationOutcome, Inputs, IntentUnion, View, Watch,
};
use serde_json::Value;

use super::{data, id_on_stack, pred, resolve_ids};
use crate::access::RobotAccess;
use crate::classes::native::{Base, Native, NativeClass};
use crate::inputs;
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::robot_state::Habitat;
use crate::specs::Mods;

/// The behaviors during which ConfirmHabitat may run.
const CONFIRM_DURING: &[&str] = &["Exploring", "ExploringVoiceCommand", "Observing"];

/// `ConfirmHabitat` (OCP §2.4): wants to run off the charger platform, with no intent
/// pending or active, the habitat belief Unknown, its `onTreadsTimeCondition` true (when
/// given) and Exploring, ExploringVoiceCommand or Observing active. Once active it probes:
/// with no charger located it runs `searchForChargerBehavior` (localizing to the charger),
/// otherwise it waits for the belief; InHabitat plays ReactToHabitat and ends, NotInHabitat
/// ends. It does not always delegate.
pub struct ConfirmHabitat<U: IntentUnion, E: 'static> {
    on_treads: Option<Condition<U, E>>,
    during: Vec<BehaviorId>,
    search: Option<BehaviorId>,
    /// Playing the InHabitat reaction.
    reacting: bool,
}

impl<U: IntentUnion, E: 'static> ConfirmHabitat<U, E> {
    fn probe(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let habitat = ctx.robot().habitat;
        match habitat {
            Habitat::InHabitat if !self.reacting => {
                self.reacting = true;
                let _ = ctx.cancel_delegates(false);
                if ctx
                    .play(
                        &ActionRequest::Animation {
                            name: "ReactToHabitat",
                            loops: 1,
                        },
                        Continuation::Call(1),
                    )
                    .is_err()
                {
                    let _ = ctx.cancel_self();
                }
            }
            Habitat::NotInHabitat => {
                let _ = ctx.cancel_self();
            }
            _ => {}
        }
    }
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for ConfirmHabitat<U, E> {
    fn on_entered_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(c) = &self.on_treads {
            c.set_active(true, ctx.clock().now());
        }
    }
    fn on_left_scope(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if let Some(c) = &self.on_treads {
            c.set_active(false, ctx.clock().now());
        }
    }
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        let robot = view.robot();
        !robot.on_charger_platform
            && !view.intents().is_any_pending_or_active()
            && robot.habitat == Habitat::Unknown
            && id_on_stack(view, &self.during)
            && self.on_treads.as_ref().is_none_or(|c| view.eval(c))
    }
    fn activation_watch(&self, view: &View<'_, U, E>) -> Option<Watch> {
        let w = Watch::reads(
            inputs::ON_CHARGER_PLATFORM
                .with(inputs::HABITAT)
                .with(Inputs::INTENTS)
                .with(Inputs::STACK),
        );
        Some(match &self.on_treads {
            Some(c) => w.and(c.watch(&view.eval_cx())),
            None => w,
        })
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        self.reacting = false;
        let charger_known = ctx.robot().objects.iter().any(|o| o.is_charger());
        if let (Some(s), false) = (self.search, charger_known) {
            if ctx.wants_to_activate(s) {
                let _ = ctx.delegate_if_in_control(s, Continuation::None);
            }
        }
        self.probe(ctx);
    }
    fn update(&mut self, ctx: &mut Ctx<'_, U, E>) {
        if ctx.is_active() {
            self.probe(ctx);
        }
    }
    fn on_delegation_done(
        &mut self,
        step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, U, E>,
    ) {
        if step == 1 {
            let _ = ctx.cancel_self();
        }
    }
    fn owned_conditions<'s>(&'s self, out: &mut Vec<(String, &'s Condition<U, E>)>) {
        if let Some(c) = &self.on_treads {
            out.push(("onTreadsTimeCondition".into(), c));
        }
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(pred(
            "off the charger platform, no user intent pending or active, habitat Unknown, onTreadsTimeCondition, and Exploring / ExploringVoiceCommand / Observing active",
            &[
                reads::ON_PLATFORM.name,
                reads::INTENTS.name,
                reads::HABITAT.name,
                reads::OFF_TREADS.name,
                reads::STACK.name,
            ],
        ))
    }
}

pub(crate) fn build_confirm_habitat<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let keys = read_class_keys(cx, data("ConfirmHabitat"));
    let on_treads = match keys.get("onTreadsTimeCondition") {
        Some(v) => Some(cx.condition(v, "onTreadsTimeCondition")?),
        None => None,
    };
    let search = keys
        .get("searchForChargerBehavior")
        .and_then(Value::as_str)
        .and_then(|n| cx.delegate_global(n, "searchForChargerBehavior"));
    Some(Box::new(Native::<U::Tag, _>::new(
        Base::new(Mods::BASE.always_delegates(false)).delegates(search),
        ConfirmHabitat {
            on_treads,
            during: resolve_ids(cx, CONFIRM_DURING),
            search,
            reacting: false,
        },
    )))
}
