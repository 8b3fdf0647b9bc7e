//! [`World`]: what conditions and classes read about the robot (the trait's documentation
//! says what the runtime asks of one).

use std::any::Any;
use std::time::Duration;

use super::wakeup::Inputs;

/// What conditions and classes read about the robot (its body, sensors, mood,
/// timers, whatever a node library models), owned by the [`Runner`](super::Runner) and
/// type-erased, so the runtime stays generic over it. A node library brings its own world
/// (`original_behaviors` brings the original robot's state) and installs a factory for it in the
/// [`Registry`](super::Registry) ([`Registry::set_world`](super::Registry::set_world)), so a
/// loaded tree carries a fresh world to its runner; [`Runner::with_world`](super::Runner::with_world)
/// sets one explicitly. A robot without any world uses `()`.
///
/// What the runtime asks of a world:
/// * the clock ([`set_clock`](World::set_clock), at the start of every tick);
/// * the activation gates it blocks ([`blocking`](World::blocking), compared with
///   [`OperationModifiers::gate_bits`](super::OperationModifiers)) and the inputs behind
///   them ([`blocking_inputs`](World::blocking_inputs));
/// * what changed ([`changed_inputs`](World::changed_inputs) against a copy taken after the
///   last change, [`clone_world`](World::clone_world) /
///   [`clone_into_world`](World::clone_into_world)): the cached tick reuses an answer while
///   none of the [`Inputs`] it read changed (see [`wakeup`](super::wakeup));
/// * the effects of the base keys every behavior may have, which the loader resolved
///   through the registry's vocabularies ([`Vocabulary`](super::Vocabulary)): `resetTimers`
///   ([`reset_timer`](World::reset_timer)), `postBehaviorSuggestion`
///   ([`offer_suggestion`](World::offer_suggestion)), `emotionEventOnActivated`
///   ([`emotion_event`](World::emotion_event)), and each new pending intent
///   ([`intent_pending`](World::intent_pending)).
///
/// Reading it: [`Runner::world`](super::Runner::world), [`View::world`](super::View::world),
/// [`Ctx::world_mut`](super::Ctx::world_mut), [`EvalCx::world`](super::EvalCx::world) (each
/// `None` when the world is of another type), and the `&dyn World` variants. A node library
/// wraps them in an extension trait so its classes read their world directly.
pub trait World: Any + Send {
    /// The runner's clock: virtual time since start and the tick, set at the start of every
    /// tick (and after skipped ticks). A change made between two ticks carries the time of
    /// the last one.
    fn set_clock(&mut self, now: Duration, tick: u64);
    /// Activation-gate bits the robot blocks now (1 off treads, 2 on the charger's
    /// contacts, 4 carrying an object, 8 a cube requirement unmet): what
    /// [`OperationModifiers::gate_bits`](super::OperationModifiers) is compared with (spec §0
    /// steps 2–5). A world without those notions blocks nothing (the default).
    fn blocking(&self) -> u8 {
        0
    }
    /// The inputs behind the gate bits `gates` (what a cached answer blocked by them must
    /// watch). Default: every world input, which is always right.
    fn blocking_inputs(&self, _gates: u8) -> Inputs {
        Inputs::WORLD
    }
    /// A copy (the runner keeps one to find what changed).
    fn clone_world(&self) -> Box<dyn World>;
    /// Makes `target` a copy of this world (after a tick that changed it). The default
    /// replaces it with [`clone_world`](Self::clone_world); a world may override it to
    /// overwrite a `target` of its own type in place (`clone_from`) instead of boxing a new
    /// copy.
    fn clone_into_world(&self, target: &mut Box<dyn World>) {
        *target = self.clone_world();
    }
    /// The inputs whose fields differ between this world and `before`, a copy taken
    /// earlier (a world of another type: [`Inputs::WORLD`], everything). The clock is time,
    /// not an input. A world whose fields share bits (see [`Inputs::world`]) reports the
    /// bit of any of them.
    fn changed_inputs(&self, before: &dyn World) -> Inputs;
    /// `resetTimers` on activation, a class's timer reset: timer `index` of the registry's
    /// behavior-timer vocabulary is reset now.
    fn reset_timer(&mut self, _index: usize) {}
    /// `postBehaviorSuggestion` on deactivation: suggestion `index` of the registry's
    /// suggestion vocabulary is offered on `tick`.
    fn offer_suggestion(&mut self, _index: usize, _tick: u64) {}
    /// `emotionEventOnActivated`: the event `name` fires.
    fn emotion_event(&mut self, _name: &str) {}
    /// A new intent is pending (its member's name), once per pending event, at the start of
    /// the tick that delivers it.
    fn intent_pending(&mut self, _tag: &str) {}
}

/// A robot with no world: nothing to read, nothing blocks, nothing changes.
impl World for () {
    fn set_clock(&mut self, _now: Duration, _tick: u64) {}
    fn clone_world(&self) -> Box<dyn World> {
        Box::new(())
    }
    fn clone_into_world(&self, target: &mut Box<dyn World>) {
        if !(&**target as &dyn Any).is::<()>() {
            *target = Box::new(());
        }
    }
    fn changed_inputs(&self, before: &dyn World) -> Inputs {
        if (before as &dyn Any).is::<()>() {
            Inputs::NONE
        } else {
            Inputs::WORLD
        }
    }
}

/// The world as `W`, if it is one.
pub(crate) fn downcast<W: World>(world: &dyn World) -> Option<&W> {
    (world as &dyn Any).downcast_ref::<W>()
}

/// The world as `W`, mutably, if it is one.
pub(crate) fn downcast_mut<W: World>(world: &mut dyn World) -> Option<&mut W> {
    (world as &mut dyn Any).downcast_mut::<W>()
}

/// `world` as `W`: replaced by `make()` first when it is of another type.
pub(crate) fn as_or_replace<W: World>(
    world: &mut Box<dyn World>,
    make: impl FnOnce() -> W,
) -> &mut W {
    if !(&**world as &dyn Any).is::<W>() {
        *world = Box::new(make());
    }
    match downcast_mut::<W>(&mut **world) {
        Some(w) => w,
        // The world was made a `W` just above.
        None => unreachable!("the world was just replaced by a `W`"),
    }
}

/// A world factory (see [`Registry::set_world`](super::Registry::set_world)).
pub type WorldFactory = std::sync::Arc<dyn Fn() -> Box<dyn World> + Send + Sync>;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default, PartialEq)]
    struct Counter(u32);

    impl World for Counter {
        fn set_clock(&mut self, _now: Duration, _tick: u64) {}
        fn clone_world(&self) -> Box<dyn World> {
            Box::new(self.clone())
        }
        fn changed_inputs(&self, before: &dyn World) -> Inputs {
            match downcast::<Counter>(before) {
                Some(b) if b == self => Inputs::NONE,
                Some(_) => Inputs::world(0),
                None => Inputs::WORLD,
            }
        }
    }

    #[test]
    fn worlds_of_another_type_differ_in_everything_and_are_replaced_on_request() {
        let unit: Box<dyn World> = Box::new(());
        assert_eq!(().changed_inputs(&*unit), Inputs::NONE);
        assert_eq!(().changed_inputs(&Counter(1)), Inputs::WORLD);
        assert_eq!(Counter(1).changed_inputs(&()), Inputs::WORLD);
        assert_eq!(Counter(1).changed_inputs(&Counter(2)), Inputs::world(0));
        let mut w: Box<dyn World> = Box::new(());
        assert!(downcast::<Counter>(&*w).is_none());
        as_or_replace(&mut w, || Counter(7)).0 += 1;
        assert_eq!(downcast::<Counter>(&*w).map(|c| c.0), Some(8));
        // Of the right type: kept.
        as_or_replace(&mut w, || Counter(0)).0 += 1;
        assert_eq!(downcast::<Counter>(&*w).map(|c| c.0), Some(9));
        let mut copy: Box<dyn World> = Box::new(());
        w.clone_into_world(&mut copy);
        assert_eq!(downcast::<Counter>(&*copy).map(|c| c.0), Some(9));
        ().clone_into_world(&mut copy);
        assert!(downcast::<()>(&*copy).is_some());
    }
}
