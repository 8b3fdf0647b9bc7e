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
//! | `VoiceCommand` | its `respondToUserIntents` match the pending intent | the runner claims the intent for it; it runs its `action` (see [`crate::actions`]) and ends with it. The action claims its `needs` from the robot's arbiter at the claimed intent's priority; refused, it waits at most its length or timeout (`"whenBusy": "wait"`, the default) or fails at once (`"whenBusy": "fail"`), and the behavior ends with it |

use robot_runtime::arbiter::{Body, SharedArbiter, WhenBlocked};
use robot_runtime::behavior::{
    load, Behavior, BehaviorId, BuildCx, Continuation, Ctx, LoadError, LoadOptions, Loaded,
    OperationModifiers, Registry, Source, View, Wakeup, Watch,
};
use robot_runtime::hri::Priority;
use serde::Deserialize;

use crate::actions::{arbitrated, robot_action, ActionSpec, Completions};
use crate::clad::anki::vector::{ActiveFeature, FeatureType};
use crate::intents::UserIntent;
use crate::log::Log;

/// The behavior tree's user event type (none: completions arrive through [`Completions`]).
pub type Event = ();

/// `VoiceCommand`: runs its action once the runner has claimed its intent; ends with it.
struct VoiceCommand {
    action: ActionSpec,
    when_busy: WhenBusy,
    log: Log,
    completions: Completions,
    arbiter: SharedArbiter<Body>,
}

/// What a `VoiceCommand` whose action is refused its parts does.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
enum WhenBusy {
    /// Waits at most its action's length or timeout.
    #[default]
    Wait,
    /// Fails at once.
    Fail,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VoiceCommandParams {
    action: ActionSpec,
    #[serde(default, rename = "whenBusy")]
    when_busy: WhenBusy,
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
        // The claim ranks as the request it serves (see `robot_runtime::arbiter`).
        let priority = ctx
            .intents()
            .active()
            .map_or(Priority::DEFAULT, |a| a.meta().priority);
        let blocked = match self.when_busy {
            WhenBusy::Wait => WhenBlocked::Wait {
                up_to: Some(self.action.wait_limit()),
            },
            WhenBusy::Fail => WhenBlocked::Fail,
        };
        let action = arbitrated(
            Box::new(robot_action(
                &self.action,
                &me,
                &self.log,
                &self.completions,
            )),
            &self.arbiter,
            (self.action.resources(), self.action.maskable()),
            priority,
            &me,
            blocked,
        );
        if let Err(e) = ctx.delegate_action(action, Continuation::None) {
            tracing::warn!(behavior = %me, error = %e, "could not start its action");
        }
    }
}

/// The original engine's classes plus the robot's, with the robot's feature and active-feature names
/// (the generated `FeatureType` and `ActiveFeature` enums) for the loader to check. The
/// robot's actions claim through `arbiter`.
pub fn registry(
    log: &Log,
    completions: &Completions,
    arbiter: &SharedArbiter<Body>,
) -> Registry<UserIntent, Event> {
    let mut r = original_behaviors::registry();
    r.set_feature_names(FeatureType::ALL.iter().map(|f| f.name()));
    r.set_active_feature_names(ActiveFeature::ALL.iter().map(|f| f.name()));
    {
        let (log, completions, arbiter) = (log.clone(), completions.clone(), arbiter.clone());
        r.register_class(
            "VoiceCommand",
            move |cx: &mut BuildCx<'_, UserIntent, Event>| {
                let p: VoiceCommandParams = cx.params()?;
                Some(Box::new(VoiceCommand {
                    action: p.action,
                    when_busy: p.when_busy,
                    log: log.clone(),
                    completions: completions.clone(),
                    arbiter: arbiter.clone(),
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
    arbiter: &SharedArbiter<Body>,
) -> Result<Loaded<UserIntent, Event>, LoadError> {
    load(&registry(log, completions, arbiter), sources, base, options)
}
