//! The owned roles of an intent (`robot_runtime::hri::Roles`) take at most two allocations
//! (one text buffer, one entry array) whatever the number of string roles, none when empty;
//! a copy as many; and the intake reads a message's roles onto the vector it kept from the
//! message before. A counting global allocator around each build.

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

/// A message's roles are read onto the vector the intake kept from the one before: the
/// third of three equal messages (the second and third not admitted: duplicates) takes one
/// allocation fewer than the second, whose roles' vector the intake kept.
#[test]
fn the_intake_reads_roles_onto_the_vector_it_kept() {
    use robot_runtime::hri::{Admission, Envelope, HriIntake, IntakeConfig, Timestamp};
    let msg = r#"{"intent": "__intent_say__", "data": "{\"object\": \"hello there\", \"recipient\": \"person_1\"}", "source": "__remote_supervisor__", "priority": 200}"#;
    let mut intake = HriIntake::new(IntakeConfig::default());
    let mut receive = |t| allocations(|| intake.receive_json(msg, Envelope::new(), Timestamp(t)));
    let (_, first) = receive(0);
    assert!(matches!(first, Admission::Execute(_)), "{first:?}");
    let (second, dup) = receive(1);
    assert!(matches!(dup, Admission::Duplicate { .. }), "{dup:?}");
    let (third, dup) = receive(2);
    assert!(matches!(dup, Admission::Duplicate { .. }), "{dup:?}");
    assert_eq!(third + 1, second, "second: {second}, third: {third}");
}
