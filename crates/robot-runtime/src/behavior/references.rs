//! What a class's registration says about the behaviors its instances name (spec §1 "Name
//! resolution", §6): the keys that name behaviors ([`ReferenceKey`]: how each name is looked
//! up, whether it is a delegate), the behavior IDs its code names, and whether it is a
//! stand-in ([`ClassInfo`]). A node library hands these with its classes
//! ([`Registry::register_class_with`](super::Registry::register_class_with)); the loader and
//! [`BuildCx::resolve_reference_keys`](super::BuildCx::resolve_reference_keys) read them. A
//! leaf: plain data.

/// How a key's behavior name is looked up (spec §1 "Name resolution", §6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resolution {
    /// The owner's own anonymous behaviors first, then global IDs ("A").
    AnonymousThenGlobal,
    /// Global IDs only ("G").
    GlobalOnly,
}

/// What a named behavior is to the owner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Role {
    /// A delegate: in the owner's declared delegates (scope, delegation).
    Delegate,
    /// Only suppressed or queried (`suppressedBehaviors`, `suppressingBehaviors`): checked,
    /// not declared.
    #[default]
    Reference,
}

/// One class-specific key that names behaviors. `key` is `name` (a string), `name[]` (an
/// array of strings) or `name[].field` (an array of objects, each with a string `field`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReferenceKey {
    /// The key pattern.
    pub key: &'static str,
    /// How names are looked up.
    pub resolution: Resolution,
    /// Delegate or reference.
    pub role: Role,
    /// Required (a missing key is a problem).
    pub required: bool,
    /// The value used when the key is absent.
    pub default: Option<&'static str>,
    /// The class the named behavior must have.
    pub must_be: Option<&'static str>,
}

impl ReferenceKey {
    /// An optional key naming delegates, looked up by `resolution`.
    pub const fn new(key: &'static str, resolution: Resolution) -> Self {
        Self {
            key,
            resolution,
            role: Role::Delegate,
            required: false,
            default: None,
            must_be: None,
        }
    }
    /// The same, required.
    pub const fn required(mut self) -> Self {
        self.required = true;
        self
    }
    /// The same, naming references (checked, not declared delegates).
    pub const fn reference(mut self) -> Self {
        self.role = Role::Reference;
        self
    }
    /// The same, the named behavior must be of `class`.
    pub const fn must_be(mut self, class: &'static str) -> Self {
        self.must_be = Some(class);
        self
    }
    /// The same, `name` when the key is absent.
    pub const fn or_default(mut self, name: &'static str) -> Self {
        self.default = Some(name);
        self
    }
}

/// What the loader knows of a registered class besides its builder (spec §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassInfo {
    /// Every class-specific key that names behaviors. A class resolves its own keys while it
    /// builds; a stand-in resolves them through
    /// [`BuildCx::resolve_reference_keys`](super::BuildCx::resolve_reference_keys).
    pub reference_keys: &'static [ReferenceKey],
    /// Behavior IDs the class's code names: each must exist in any tree that uses the
    /// class (else a load error); for a stand-in with [`Role::Delegate`], each is a
    /// declared delegate of the instance (a class that runs declares its own).
    pub hard_coded_ids: &'static [&'static str],
    /// What the hard-coded IDs are to the class.
    pub hard_coded_role: Role,
    /// A stand-in for a class whose code this robot does not have: loaded only when the
    /// load options allow stand-ins (else a `NotNative` error), reported as such, and its
    /// activation gates start open.
    pub stand_in: bool,
}
