//! The two rules about the members of a user-intent union, and the member names the runtime
//! gives a meaning to. Every checker uses these (the map compiler's completeness lint in
//! `robot-codegen`, behavior coverage, a robot's completed-intents table), so the rules
//! cannot drift apart.
//!
//! The original robot's union is ordered in three parts: the production intents, the
//! sentinel [`TEST_SEPARATOR`], then special members (`simple_voice_response`) and the
//! unit-test intents. Those are two different rules, and a union may append real intents
//! below the separator (our ROS4HRI `hri_*` members are there):
//!
//! * **must appear in the map** ([`must_appear_in_map`]): members declared *above* the
//!   separator. The original asserted at start-up that each one is named by some entry of
//!   `user_intent_map.json`, feature-gated or not (the map is the machine-readable list of
//!   user intents). A union without a separator demands every member.
//! * **test-only** ([`is_test_only`]): members whose name starts with [`TEST_PREFIX`]
//!   (`test_name`, `test_user_intent_1`, the separator itself). No production behavior has
//!   to claim them and no map has to name them. Everything else, `simple_voice_response` and
//!   `hri_move_to` included, is a real intent that coverage demands a behavior for.
//!
//! ```
//! use robot_runtime::intent::members::{is_test_only, must_appear_in_map};
//!
//! let union = ["unmatched_intent", "set_timer", "test_SEPARATOR", "simple_voice_response",
//!              "test_name", "hri_move_to"];
//! assert_eq!(must_appear_in_map(&union), ["unmatched_intent", "set_timer"]);
//! assert!(is_test_only("test_name") && is_test_only("test_SEPARATOR"));
//! assert!(!is_test_only("hri_move_to") && !is_test_only("simple_voice_response"));
//! ```

use crate::union::CladUnion;

/// The original's sentinel member: members declared above it must appear in the map.
pub const TEST_SEPARATOR: &str = "test_SEPARATOR";

/// The name prefix of test-only members.
pub const TEST_PREFIX: &str = "test_";

/// The member a simple voice response becomes (the original's meta tag): its payload holds
/// [`crate::intent::SimpleVoiceResponse::PAYLOAD_FIELDS`].
pub const SIMPLE_VOICE_RESPONSE: &str = "simple_voice_response";

/// The members a complete map must name: those declared above [`TEST_SEPARATOR`], in
/// declaration order (every member when the union has no separator). `members` are the
/// union's member names in declaration order.
pub fn must_appear_in_map<'a, 'm>(members: &'m [&'a str]) -> &'m [&'a str] {
    let end = members
        .iter()
        .position(|m| *m == TEST_SEPARATOR)
        .unwrap_or(members.len());
    &members[..end]
}

/// True for a test-only member: its name starts with [`TEST_PREFIX`].
pub fn is_test_only(member: &str) -> bool {
    member.starts_with(TEST_PREFIX)
}

/// [`must_appear_in_map`] for the member `tag` of a generated union.
pub fn tag_must_appear_in_map<U: CladUnion>(tag: U::Tag) -> bool {
    let names: Vec<&str> = U::TAGS.iter().map(|t| U::tag_name(*t)).collect();
    must_appear_in_map(&names).contains(&U::tag_name(tag))
}

/// [`is_test_only`] for the member `tag` of a generated union.
pub fn tag_is_test_only<U: CladUnion>(tag: U::Tag) -> bool {
    is_test_only(U::tag_name(tag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_union_without_separator_demands_every_member() {
        assert_eq!(must_appear_in_map(&["a", "b"]), ["a", "b"]);
        assert!(must_appear_in_map(&[]).is_empty());
        assert!(must_appear_in_map(&[TEST_SEPARATOR, "a"]).is_empty());
    }

    #[test]
    fn test_only_is_the_prefix_and_nothing_else() {
        assert!(is_test_only("test_"));
        assert!(is_test_only("test_timeWithUnits"));
        assert!(!is_test_only("Test_name"));
        assert!(!is_test_only("contest_winner"));
        assert!(!is_test_only(SIMPLE_VOICE_RESPONSE));
    }
}
