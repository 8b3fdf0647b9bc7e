//! Changes of the world between two ticks, for the property tests that run trees under a
//! changing robot state and intents (`tests/behavior_trees.rs`, `tests/behavior_wakeup.rs`):
//! [`Change`], what it does to a runner ([`apply`]) and a proptest strategy ([`change`]).

use original_behaviors::robot_state::{BatteryLevel, Face, OffTreads, SimpleMood};
use original_behaviors::RobotAccessMut;
use proptest::prelude::*;
use robot_runtime::behavior::Runner;
use robot_runtime::intent::IntentSource;

use crate::clad::{UserIntentMeetVictor, UserIntentTimeInSeconds};
use crate::{UserIntent, Void};

/// One change of the world between two ticks.
#[derive(Clone, Debug)]
pub enum Change {
    /// Nothing.
    Nothing,
    /// The off-treads state (index into `OffTreads::ALL`, modulo 7).
    OffTreads(u8),
    /// On the charger (contacts and platform).
    Charger(bool),
    /// Battery low or nominal.
    Battery(bool),
    /// A cube seen and held by the user, or none.
    Cube(bool),
    /// A named face at 40 cm, or none.
    Face(bool),
    /// Held (and in a palm), or not.
    Held(bool),
    /// High stimulation or the default mood.
    Mood(bool),
    /// Cliff sensors detecting (count 0 to 4).
    Cliffs(u8),
    /// The stimulation emotion (tenths).
    Stimulated(u8),
    /// Touched or not.
    Touched(bool),
    /// A behavior timer reset (index).
    ResetTimer(u8),
    /// A poke.
    Poke,
    /// A pending intent (one of four).
    Intent(u8),
    /// The trigger word.
    TriggerWord,
}

/// Applies `c` to `r` (between two ticks).
pub fn apply(r: &mut Runner<UserIntent>, c: &Change) {
    let now = r.clock().now();
    match c {
        Change::Intent(k) => {
            let intent = match k % 4 {
                0 => UserIntent::ImperativeCome(Void {}),
                1 => UserIntent::GreetingGoodmorning(Void {}),
                2 => UserIntent::SetTimer(UserIntentTimeInSeconds { time_s: 5 }),
                _ => UserIntent::MeetVictor(UserIntentMeetVictor {
                    username: "x".into(),
                }),
            };
            r.intents_mut().set_pending(intent, IntentSource::Voice);
            return;
        }
        Change::TriggerWord => {
            r.intents_mut().set_trigger_word_pending(true, false);
            return;
        }
        Change::Nothing => return,
        _ => {}
    }
    let s = r.robot_mut();
    match c {
        Change::OffTreads(k) => s.set_off_treads(OffTreads::ALL[usize::from(*k) % 7]),
        Change::Charger(b) => {
            s.on_charger = *b;
            s.on_charger_platform = *b;
        }
        Change::Battery(low) => {
            s.battery_level = if *low {
                BatteryLevel::Low
            } else {
                BatteryLevel::Nominal
            }
        }
        Change::Cube(b) => {
            if *b {
                s.observe_object(1, 150.0);
            } else {
                s.objects.clear();
            }
            s.user_holding_cube = *b;
        }
        Change::Face(b) => {
            s.faces.clear();
            if *b {
                s.faces.push(Face {
                    distance_mm: Some(400.0),
                    named: true,
                    name: None,
                    last_seen: now,
                });
            }
        }
        Change::Held(b) => {
            s.set_being_held(*b);
            s.set_held_in_palm(*b);
        }
        Change::Mood(high) => s.set_simple_mood(if *high {
            SimpleMood::HighStim
        } else {
            SimpleMood::Default
        }),
        Change::Cliffs(n) => s.set_cliffs(((1u16 << (n % 5)) - 1) as u8),
        Change::Stimulated(t) => s.emotions[3] = f32::from(t % 11) / 10.0,
        Change::Touched(b) => s.set_touched(*b),
        Change::ResetTimer(k) => s.behavior_timers.reset(usize::from(*k) % 10, now),
        Change::Poke => s.poke(),
        Change::Nothing | Change::Intent(_) | Change::TriggerWord => {}
    }
}

/// Any [`Change`], "nothing" most often.
pub fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        4 => Just(Change::Nothing),
        1 => any::<u8>().prop_map(Change::OffTreads),
        1 => any::<bool>().prop_map(Change::Charger),
        1 => any::<bool>().prop_map(Change::Battery),
        1 => any::<bool>().prop_map(Change::Cube),
        1 => any::<bool>().prop_map(Change::Face),
        1 => any::<bool>().prop_map(Change::Held),
        1 => any::<bool>().prop_map(Change::Mood),
        1 => any::<u8>().prop_map(Change::Cliffs),
        1 => any::<u8>().prop_map(Change::Stimulated),
        1 => any::<bool>().prop_map(Change::Touched),
        1 => any::<u8>().prop_map(Change::ResetTimer),
        1 => Just(Change::Poke),
        1 => any::<u8>().prop_map(Change::Intent),
        1 => Just(Change::TriggerWord),
    ]
}
