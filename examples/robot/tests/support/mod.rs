//! What the class-family tests (`classes_*.rs`) share: an instance of a class giving every
//! key its table lists, each a sample of its type (`KeyType::sample`), to check that every
//! key is read as the table says and that a wrong type (`KeyType::wrong`) or a missing
//! required key is refused at the key; everything a runner shows after a tick
//! ([`seen`]), to compare a cached runner with one asked every tick; and a runner driven
//! with the ticks its wake-up allows skipped ([`run_skipping`]).

// Each family test uses a part of this module.
#![allow(dead_code)]

use std::time::Duration;

use original_behaviors::specs::{ClassData, Key};
use original_behaviors::RobotAccess;
use robot_example::intents::UserIntent;
use robot_runtime::behavior::{BehaviorId, Runner};
use serde_json::{json, Map, Value};

/// An instance `id` of `class` giving every key of its table but those `skip` names, each
/// the value `value` gives it (a sample of its type: `|k| k.ty.sample("Idle")`).
pub fn full_instance(
    class: &ClassData,
    id: &str,
    skip: &[&str],
    value: impl Fn(&Key) -> Value,
) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("behaviorID".into(), json!(id));
    o.insert("behaviorClass".into(), json!(class.name));
    for k in class.keys.iter().filter(|k| !skip.contains(&k.name)) {
        o.insert(k.name.into(), value(k));
    }
    o
}

/// Everything observable after a tick: the tick, the stack, every behavior's starts, state
/// and action, the pending and active intents, the robot's state, the error count.
pub fn seen(r: &Runner<UserIntent>) -> String {
    let ids: Vec<BehaviorId> = (0..r.len()).map(BehaviorId::from_index).collect();
    format!(
        "{} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {}",
        r.clock().tick(),
        r.stack_names(),
        ids.iter().map(|id| r.starts(*id)).collect::<Vec<_>>(),
        ids.iter().map(|id| r.debug_state(*id)).collect::<Vec<_>>(),
        ids.iter().map(|id| r.action_of(*id)).collect::<Vec<_>>(),
        r.intents().pending().map(|p| p.tag()),
        r.intents().active().map(|a| a.tag()),
        r.robot(),
        r.errors().len()
    )
}

/// Runs `r` (ticks of `dt`) up to tick `until`, skipping the ticks its wake-up says nothing
/// happens in (never while an intent or the trigger word is pending: nothing in the intent
/// component counts ticks); calls `f` after every tick it runs. Returns the ticks run.
pub fn run_skipping(
    r: &mut Runner<UserIntent>,
    dt: Duration,
    until: u64,
    mut f: impl FnMut(&Runner<UserIntent>),
) -> u64 {
    let mut ran = 0;
    while r.clock().tick() < until {
        let i = r.intents();
        if !i.is_any_pending() && !i.is_trigger_word_pending() {
            let wake = r
                .next_wakeup()
                .ticks_from(r.clock().now(), dt)
                .unwrap_or(u64::MAX);
            let skip = wake.saturating_sub(1).min(until - r.clock().tick() - 1);
            if skip > 0 {
                r.skip_idle_ticks(skip, dt);
            }
        }
        r.tick(dt, &[]);
        ran += 1;
        f(r);
    }
    ran
}
