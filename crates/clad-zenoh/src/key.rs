//! Key expressions derived from the schema.
//!
//! A type's default key is its fully qualified CLAD name with `::` replaced by `/`:
//! `CloudMic::Message` → `CloudMic/Message`, `Anki::Vector::UserIntent` →
//! `Anki/Vector/UserIntent`, a type outside any namespace → its name. CLAD names are
//! identifiers, so the result is always a valid Zenoh key expression. Every declaration
//! takes an `Option<&str>` key: `None` uses the default, `Some(key)` overrides it (to run two
//! robots side by side, `robot1/CloudMic/Message`, or to listen with wildcards,
//! `**/CloudMic/Message`).

use clad_runtime::wire::Wire;

/// The default key expression for the CLAD type named `type_name`.
pub fn for_name(type_name: &str) -> String {
    type_name.replace("::", "/")
}

/// The default key expression for `T`.
pub fn of<T: Wire>() -> String {
    for_name(T::TYPE_NAME)
}

/// `key` when given, else `T`'s default.
pub fn resolve<T: Wire>(key: Option<&str>) -> String {
    key.map_or_else(of::<T>, str::to_owned)
}

#[cfg(test)]
mod tests {
    #[test]
    fn names_become_paths() {
        assert_eq!(super::for_name("CloudMic::Message"), "CloudMic/Message");
        assert_eq!(super::for_name("A::B::C"), "A/B/C");
        assert_eq!(super::for_name("Top"), "Top");
        assert_eq!(super::of::<u8>(), "uint_8");
        assert_eq!(super::resolve::<u8>(Some("x/y")), "x/y");
    }
}
