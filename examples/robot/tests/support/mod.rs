//! What the class-family tests (`classes_*.rs`) share: an instance of a class giving every
//! key its table lists, each a sample of its type (`KeyType::sample`), to check that every
//! key is read as the table says and that a wrong type (`KeyType::wrong`) or a missing
//! required key is refused at the key.

use original_behaviors::specs::{ClassData, Key};
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
