//! [`CladUnion`]: what every generated union offers generically, so runtime components (the
//! user-intent component, routers, loggers) can serve any schema's union, ours or a user's.

use std::fmt::Debug;
use std::hash::Hash;

/// Implemented by every generated CLAD union.
///
/// ```
/// use robot_runtime::union::CladUnion;
///
/// fn describe<U: CladUnion>(u: &U) -> String {
///     format!("{} holding {}", U::NAME, U::tag_name(u.tag()))
/// }
/// ```
pub trait CladUnion: Sized {
    /// The generated `<Name>Tag` enum.
    type Tag: Copy + Eq + Ord + Hash + Debug + Send + Sync + 'static;

    /// The union's fully qualified CLAD name.
    const NAME: &'static str;

    /// Every tag, in member order.
    const TAGS: &'static [Self::Tag];

    /// The member this value holds.
    fn tag(&self) -> Self::Tag;

    /// The member's schema name (`"set_timer"`).
    fn tag_name(tag: Self::Tag) -> &'static str;

    /// The tag of the member with this schema name.
    fn tag_from_name(name: &str) -> Option<Self::Tag>;

    /// The tag byte on the wire.
    fn tag_value(tag: Self::Tag) -> u8;

    /// The member `tag` holding its default payload. Allocation-free for payloads without
    /// strings or variable arrays (e.g. empty structures).
    fn default_for(tag: Self::Tag) -> Self;

    /// True when the member's payload is a message/structure (its fields are flattened next
    /// to `"type"` in CLAD-JSON); false when it is carried under `"value"`.
    fn payload_is_struct(tag: Self::Tag) -> bool;
}
