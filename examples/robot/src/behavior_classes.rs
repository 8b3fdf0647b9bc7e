//! The robot's own behavior classes on `robot_runtime::behavior`, the registry that adds
//! them to the original engine's (`original_behaviors`), and the loader call for the tree of
//! `behaviors/robot.json` (the original engine's format).
//!
//! The class the robot adds to the original engine's (`Wait`, `DispatcherStrictPriority`,
//! `ReactToVoiceCommand`, `ReactToUnclaimedIntent`, `SimpleVoiceResponse`, `HighLevelAI`,
//! ...):
//!
//! | `behaviorClass` | wants to be activated when | does |
//! |---|---|---|
//! | `VoiceCommand` | its `respondToUserIntents` match the pending intent | the runner claims the intent for it; it runs its `action` (see [`crate::actions`]) and ends with it |

use robot_runtime::behavior::{
    load, Behavior, BehaviorId, BuildCx, Continuation, Ctx, LoadError, LoadOptions, Loaded,
    OperationModifiers, Registry, Source, View, Wakeup, Watch,
};
use serde::Deserialize;

use crate::actions::{robot_action, ActionSpec, Completions};
use crate::clad::anki::vector::{ActiveFeature, FeatureType};
use crate::intents::UserIntent;
use crate::log::Log;

/// The behavior tree's user event type (none: completions arrive through [`Completions`]).
pub type Event = ();

/// `VoiceCommand`: runs its action once the runner has claimed its intent; ends with it.
struct VoiceCommand {
    action: ActionSpec,
    log: Log,
    completions: Completions,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VoiceCommandParams {
    action: ActionSpec,
}

impl Behavior<UserIntent, Event> for VoiceCommand {
    /// Ends with its action (the base default: it always delegates).
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.always_delegates = true;
    }
    fn updates_while_inactive(&self) -> bool {
        false
    }
    /// Its `respondToUserIntents` decide (the runner's part); the class always wants to.
    fn activation_watch(&self, _view: &View<'_, UserIntent, Event>) -> Option<Watch> {
        Some(Watch::CONSTANT)
    }
    /// Its action is the runner's.
    fn next_wakeup(&self, _view: &View<'_, UserIntent, Event>) -> Wakeup {
        Wakeup::Never
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, UserIntent, Event>) {
        let me = ctx.my_name().to_string();
        let action = robot_action(&self.action, &me, &self.log, &self.completions);
        if let Err(e) = ctx.delegate_action(Box::new(action), Continuation::None) {
            tracing::warn!(behavior = %me, error = %e, "could not start its action");
        }
    }
}

/// The original engine's classes plus the robot's, with the robot's feature and active-feature names
/// (the generated `FeatureType` and `ActiveFeature` enums) for the loader to check.
pub fn registry(log: &Log, completions: &Completions) -> Registry<UserIntent, Event> {
    let mut r = original_behaviors::registry();
    r.set_feature_names(FeatureType::ALL.iter().map(|f| f.name()));
    r.set_active_feature_names(ActiveFeature::ALL.iter().map(|f| f.name()));
    {
        let (log, completions) = (log.clone(), completions.clone());
        r.register_class(
            "VoiceCommand",
            move |cx: &mut BuildCx<'_, UserIntent, Event>| {
                let p: VoiceCommandParams = cx.params()?;
                Some(Box::new(VoiceCommand {
                    action: p.action,
                    log: log.clone(),
                    completions: completions.clone(),
                }) as Box<dyn Behavior<UserIntent, Event>>)
            },
        );
    }
    r
}

/// Loads a tree from `sources` with `base` as its root: the robot's own tree
/// (`behaviors/robot.json`, with [`LoadOptions::default`]) or a tree written for the
/// original engine ([`LoadOptions::with_stand_ins`]: the classes `original_behaviors` does not
/// implement run as stand-ins).
/// Every problem of the tree is in the error, with file, line and JSON path.
pub fn load_sources(
    sources: &[Source<'_>],
    base: &str,
    options: &LoadOptions,
    log: &Log,
    completions: &Completions,
) -> Result<Loaded<UserIntent, Event>, LoadError> {
    load(&registry(log, completions), sources, base, options)
}
