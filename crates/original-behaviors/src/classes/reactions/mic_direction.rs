//! `ReactToMicDirection` (see the [family's documentation](super)).

use std::any::Any;

use robot_runtime::behavior::{
    ActionRequest, Behavior, BuildCx, ClassPredicate, Continuation, Ctx, IntentUnion, View, Watch,
};
use serde_json::Value;

use super::{bits, data, predicate};
use crate::access::{RobotAccess, RobotAccessMut};
use crate::classes::native::{Base, Native, NativeClass};
use crate::keys::read_class_keys;
use crate::logic::reads;
use crate::predicate::Read;
use crate::robot_state::RobotState;

/// The clock directions' names in `reaction_list`, 0 (twelve o'clock) to 11.
pub const CLOCK_DIRECTIONS: [&str; 12] = [
    "TwelveOClock",
    "OneOClock",
    "TwoOClock",
    "ThreeOClock",
    "FourOClock",
    "FiveOClock",
    "SixOClock",
    "SevenOClock",
    "EightOClock",
    "NineOClock",
    "TenOClock",
    "ElevenOClock",
];

/// The robot states of `reaction_list`, in the order the original picks them.
const MIC_STATES: [&str; 3] = ["OnCharger", "OffTreads", "OnSurface"];

/// One direction's reaction.
#[derive(Clone, Debug, Default, PartialEq)]
struct DirectionReaction {
    anim: Option<String>,
    dir_deg: Option<f32>,
    enabled: bool,
}

/// One state's reactions.
#[derive(Clone, Debug, PartialEq)]
struct StateReactions {
    enabled: bool,
    directions: [Option<DirectionReaction>; 12],
}

impl Default for StateReactions {
    fn default() -> Self {
        Self {
            enabled: true,
            directions: Default::default(),
        }
    }
}

const MIC_READS: &[Read] = &[reads::SOUND, reads::ON_PLATFORM, reads::PICKED_UP];

/// `ReactToMicDirection` (see the [family's documentation](super)).
pub struct ReactToMicDirection {
    default: StateReactions,
    /// Per [`MIC_STATES`].
    states: [Option<StateReactions>; 3],
}

impl ReactToMicDirection {
    fn state_index(r: &RobotState) -> usize {
        if r.on_charger_platform {
            0
        } else if r.picked_up {
            1
        } else {
            2
        }
    }

    /// Reactions are enabled for the robot's state.
    pub fn enabled_for(&self, r: &RobotState) -> bool {
        self.states[Self::state_index(r)]
            .as_ref()
            .map_or(self.default.enabled, |s| s.enabled)
    }

    /// The reaction to `direction` in the robot's state: an animation, or a turn.
    fn reaction(&self, r: &RobotState, direction: u8) -> (Option<String>, f32) {
        let d = usize::from(direction.min(11));
        let entry = self.states[Self::state_index(r)]
            .as_ref()
            .and_then(|s| s.directions[d].as_ref())
            .or(self.default.directions[d].as_ref());
        match entry {
            Some(e) if !e.enabled => (None, 0.0),
            Some(e) => (
                e.anim.clone().filter(|a| !a.trim().is_empty()),
                e.dir_deg.unwrap_or(-30.0 * d as f32),
            ),
            None => (None, -30.0 * d as f32),
        }
    }
}

impl<U: IntentUnion, E: 'static> NativeClass<U, E> for ReactToMicDirection {
    fn wants_to_be_activated(&self, view: &View<'_, U, E>) -> bool {
        let r = view.robot();
        r.signals.mic_reaction.is_some() && self.enabled_for(r)
    }
    fn activation_watch(&self, _view: &View<'_, U, E>) -> Option<Watch> {
        Some(Watch::reads(bits(MIC_READS)))
    }
    fn class_predicate(&self) -> Option<ClassPredicate> {
        Some(predicate(
            "a parent handed it a direction, and reactions are enabled for the robot's state (on the charger platform, picked up, on a surface)",
            MIC_READS,
        ))
    }
    fn on_activated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        let Some((direction, _)) = ctx.robot().signals.mic_reaction else {
            let _ = ctx.cancel_self();
            return;
        };
        let (anim, turn) = self.reaction(ctx.robot(), direction);
        let played = match anim {
            Some(a) => ctx
                .play(
                    &ActionRequest::Animation { name: &a, loops: 1 },
                    Continuation::None,
                )
                .is_ok(),
            None if turn.abs() >= 5.0 => ctx
                .play(&ActionRequest::Turn { degrees: turn }, Continuation::None)
                .is_ok(),
            None => false,
        };
        if !played {
            let _ = ctx.cancel_self();
        }
    }
    fn on_deactivated(&mut self, ctx: &mut Ctx<'_, U, E>) {
        ctx.robot_mut().signals.mic_reaction = None;
    }
    fn as_any(&self) -> Option<&dyn Any> {
        Some(self)
    }
}

fn parse_state<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
    at: &str,
    v: &Value,
) -> Option<StateReactions> {
    let Some(o) = v.as_object() else {
        cx.bad_value(at, format!("expected an object, found {v}"));
        return None;
    };
    let mut s = StateReactions::default();
    if let Some(e) = o.get("enabled") {
        match e.as_bool() {
            Some(b) => s.enabled = b,
            None => cx.bad_value(
                &format!("{at}.enabled"),
                format!("expected a boolean, found {e}"),
            ),
        }
    }
    for (i, name) in CLOCK_DIRECTIONS.iter().enumerate() {
        let Some(d) = o.get(*name) else { continue };
        let here = format!("{at}.{name}");
        let Some(d) = d.as_object() else {
            cx.bad_value(&here, format!("expected {{anim, dir, enabled}}, found {d}"));
            continue;
        };
        let anim = match d.get("anim") {
            None => None,
            Some(Value::String(a)) => Some(a.clone()),
            Some(a) => {
                cx.bad_value(
                    &format!("{here}.anim"),
                    format!("expected an animation trigger, found {a}"),
                );
                None
            }
        };
        let dir_deg = match d.get("dir") {
            None => None,
            Some(x) => match x.as_f64().filter(|x| x.is_finite()) {
                Some(x) => Some(x as f32),
                None => {
                    cx.bad_value(
                        &format!("{here}.dir"),
                        format!("expected degrees, found {x}"),
                    );
                    None
                }
            },
        };
        let enabled = match d.get("enabled") {
            None => true,
            Some(e) => e.as_bool().unwrap_or_else(|| {
                cx.bad_value(
                    &format!("{here}.enabled"),
                    format!("expected a boolean, found {e}"),
                );
                true
            }),
        };
        s.directions[i] = Some(DirectionReaction {
            anim,
            dir_deg,
            enabled,
        });
    }
    Some(s)
}

pub(crate) fn build_react_to_mic_direction<U: IntentUnion, E: 'static>(
    cx: &mut BuildCx<'_, U, E>,
) -> Option<Box<dyn Behavior<U, E>>> {
    let data = data("ReactToMicDirection")?;
    let keys = read_class_keys(cx, data);
    let list = keys.get("reaction_list")?.as_object()?.clone();
    let default = match list.get("Default") {
        Some(v) => parse_state(cx, "reaction_list.Default", v).unwrap_or_default(),
        None => StateReactions::default(),
    };
    let mut states: [Option<StateReactions>; 3] = Default::default();
    for (i, name) in MIC_STATES.iter().enumerate() {
        if let Some(v) = list.get(*name) {
            states[i] = parse_state(cx, &format!("reaction_list.{name}"), v);
        }
    }
    Some(Box::new(Native::<U::Tag, _>::new(
        Base::new(data.mods),
        ReactToMicDirection { default, states },
    )))
}
