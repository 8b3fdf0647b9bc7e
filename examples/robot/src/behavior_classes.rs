//! The robot's own behavior classes on `robot_runtime::behavior`, the registry that adds
//! them to the original engine's (`original_behaviors`), and the loader call for the tree of
//! `behaviors/robot.json` (the original engine's format).
//!
//! Classes the robot adds to the original engine's (`Wait`, `DispatcherStrictPriority`,
//! `ReactToUnclaimedIntent`, `SimpleVoiceResponse`, `HighLevelAI`, ...):
//!
//! | `behaviorClass` | wants to be activated when | does |
//! |---|---|---|
//! | `ReactToVoiceCommand` | the trigger word is pending | clears it, pauses the claim deadline (scoped) and listens (`listenTimeout_s`, default 5 s) until an intent is pending (then ends so that its handler claims it), the error flag is set, or time is up; claims `unmatched_intent` and `silence` itself and plays `huhAnimation` (`huhLength_s`); the original class's `behaviorOnIntent` is accepted and resolved (a `ReactToMicDirection`), so trees written for the original use this class |
//! | `VoiceCommand` | its `respondToUserIntents` match the pending intent | the runner claims the intent for it; it runs its `action` (see [`crate::actions`]) and ends with it. The action claims its `needs` from the robot's arbiter at the claimed intent's priority; refused, it waits at most its length or timeout (`"whenBusy": "wait"`, the default) or fails at once (`"whenBusy": "fail"`), and the behavior ends with it |

use std::time::Duration;

use robot_runtime::arbiter::{Body, SharedArbiter, WhenBlocked};
use robot_runtime::behavior::{
    load, Behavior, BehaviorId, BuildCx, ClaimSite, Continuation, Ctx, DelegationOutcome, Inputs,
    LoadError, LoadOptions, Loaded, OperationModifiers, Registry, Source, View, Wakeup, Watch,
};
use robot_runtime::hri::Priority;
use robot_runtime::intent::IntentMatcher;
use serde::Deserialize;

use crate::actions::{arbitrated, robot_action, ActionSpec, Completions};
use crate::clad::anki::vector::{ActiveFeature, FeatureType};
use crate::intents::{Tag, UserIntent};
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
            self.action.resources(),
            priority,
            &me,
            blocked,
        );
        if let Err(e) = ctx.delegate_action(action, Continuation::None) {
            tracing::warn!(behavior = %me, error = %e, "could not start its action");
        }
    }
}

/// `ReactToVoiceCommand`: the trigger-word reaction (see the module docs).
struct ReactToVoiceCommand {
    log: Log,
    completions: Completions,
    listen: Duration,
    huh: String,
    huh_length: Duration,
    reacting: bool,
}

impl Behavior<UserIntent, Event> for ReactToVoiceCommand {
    /// Listens without delegating; reacts on a trigger word even off treads or on the
    /// charger.
    fn operation_modifiers(
        &self,
        m: &mut OperationModifiers,
        _: &dyn Fn(BehaviorId) -> OperationModifiers,
    ) {
        m.allow_everywhere();
        m.always_delegates = false;
    }
    fn wants_to_be_activated(&self, view: &View<'_, UserIntent, Event>) -> bool {
        view.intents().is_trigger_word_pending()
    }
    fn updates_while_inactive(&self) -> bool {
        false
    }
    fn activation_watch(&self, _view: &View<'_, UserIntent, Event>) -> Option<Watch> {
        Some(Watch::reads(Inputs::INTENTS))
    }
    /// Listening: its timeout (an intent or an error is an input); reacting: its action.
    fn next_wakeup(&self, view: &View<'_, UserIntent, Event>) -> Wakeup {
        match view.active_for() {
            Some(_) if self.reacting => Wakeup::Never,
            Some(t) if t < self.listen => Wakeup::after(view.clock().now(), self.listen - t),
            Some(_) => Wakeup::EveryTick,
            None => Wakeup::Never,
        }
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, UserIntent, Event>) {
        self.reacting = false;
        ctx.intents_mut().clear_trigger_word();
        ctx.hold_timeout();
    }
    fn update(&mut self, ctx: &mut Ctx<'_, UserIntent, Event>) {
        if !ctx.is_active() || self.reacting {
            return;
        }
        let pending = ctx.intents().pending_tag();
        match pending {
            Some(tag @ (Tag::UnmatchedIntent | Tag::Silence)) => {
                self.reacting = true;
                let _ = ctx.activate_intent(&IntentMatcher::tag(tag));
                let spec = ActionSpec {
                    name: self.huh.clone(),
                    duration_ms: Some(self.huh_length.as_millis() as u64),
                    timeout_ms: None,
                    // The "huh?" is a face and a sound: it waits for no drive.
                    needs: Some(Vec::new()),
                };
                let me = ctx.my_name().to_string();
                let anim = robot_action(&spec, &me, &self.log, &self.completions);
                let _ = ctx.delegate_action(Box::new(anim), Continuation::Call(1));
            }
            Some(_) => {
                let _ = ctx.cancel_self();
            }
            None if ctx.intents().was_error() => {
                ctx.intents_mut().reset_error();
                let _ = ctx.cancel_self();
            }
            None if ctx.view().active_for().is_some_and(|t| t >= self.listen) => {
                let _ = ctx.cancel_self();
            }
            None => {}
        }
    }
    fn on_delegation_done(
        &mut self,
        _step: u32,
        _outcome: DelegationOutcome,
        ctx: &mut Ctx<'_, UserIntent, Event>,
    ) {
        let _ = ctx.cancel_self();
    }
    fn claim_sites(&self, out: &mut Vec<ClaimSite<Tag>>) {
        out.push(ClaimSite {
            tag: Tag::UnmatchedIntent,
            state: None,
            owner: None,
        });
        out.push(ClaimSite {
            tag: Tag::Silence,
            state: None,
            owner: None,
        });
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
    let (log, completions) = (log.clone(), completions.clone());
    r.register_class(
        "ReactToVoiceCommand",
        move |cx: &mut BuildCx<'_, UserIntent, Event>| {
            // The robot's keys (with defaults), and the original class's reference to the
            // behavior that turns toward the voice (declared, for trees written for it).
            let listen = cx
                .seconds("listenTimeout_s")
                .unwrap_or(Duration::from_secs(5));
            let huh = cx.str("huhAnimation").unwrap_or("anim_huh").to_owned();
            let huh_length = cx
                .seconds("huhLength_s")
                .unwrap_or(Duration::from_millis(800));
            if let Some(name) = cx.str("behaviorOnIntent") {
                let id = cx.delegate(name, "behaviorOnIntent")?;
                cx.require_class(id, name, "behaviorOnIntent", "ReactToMicDirection");
            }
            Some(Box::new(ReactToVoiceCommand {
                log: log.clone(),
                completions: completions.clone(),
                listen,
                huh,
                huh_length,
                reacting: false,
            }) as Box<dyn Behavior<UserIntent, Event>>)
        },
    );
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
