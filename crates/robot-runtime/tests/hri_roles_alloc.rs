//! The owned roles of an intent (`robot_runtime::hri::Roles`) take at most two allocations
//! (one text buffer, one entry array) whatever the number of string roles, none when empty;
//! a copy as many. A counting global allocator around each build.

#[path = "../../robot-runtime-tests/src/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::{allocations, Counting};
use robot_runtime::hri::{Role, Roles};
use serde_json::{Map, Value};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `n` string entries: role keys first, then keys that are no role.
fn strings(n: usize) -> Map<String, Value> {
    (0..n)
        .map(|i| {
            let key = match Role::ALL.get(i) {
                Some(role) => role.key().to_owned(),
                None => format!("extra_{i}"),
            };
            (key, Value::String(format!("value number {i}")))
        })
        .collect()
}

#[test]
fn string_roles_take_two_allocations_whatever_their_number() {
    for n in 0..24 {
        let map = strings(n);
        let (from_ref, roles) = allocations(|| Roles::from(&map));
        let (from_owned, owned) = allocations(|| Roles::from(map.clone()));
        let (_, copy) = allocations(|| map.clone());
        let (from_copy, _) = allocations(|| Roles::from(copy));
        let (cloned, again) = allocations(|| roles.clone());
        let limit = if n == 0 { 0 } else { 2 };
        assert!(from_ref <= limit, "{n} roles: {from_ref} allocations");
        assert!(from_copy <= limit, "{n} roles: {from_copy} allocations");
        assert!(cloned <= limit, "{n} roles: {cloned} allocations to copy");
        assert!(from_owned >= from_copy, "the map's copy is counted too");
        assert_eq!(roles, owned);
        assert_eq!(again, roles);
        assert_eq!(roles.to_map(), map);
    }
}

#[test]
fn looking_up_a_role_allocates_nothing() {
    let roles = Roles::from(&strings(12));
    let (n, found) = allocations(|| {
        (
            roles.role(Role::Recipient).map(str::len),
            roles.get("extra_11").and_then(|v| v.as_str()).map(str::len),
            roles.role(Role::OtherData).is_some(),
        )
    });
    assert_eq!(n, 0);
    assert_eq!(
        found,
        (
            Some("value number 3".len()),
            Some("value number 11".len()),
            true
        )
    );
}
