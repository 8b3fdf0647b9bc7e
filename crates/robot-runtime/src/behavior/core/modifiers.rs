//! Operation modifiers (the activation gates and always-delegates) and cube-connection requirements.

/// A cube-connection requirement (`behaviorModifiers.cubeConnectionRequirements`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CubeRequirement {
    /// None (the default).
    #[default]
    None,
    /// Optional, lazy.
    OptionalLazy,
    /// Optional, active.
    OptionalActive,
    /// Required, lazy: needs an active cube connection to activate.
    RequiredLazy,
    /// Required, managed: needs an active cube connection to activate.
    RequiredManaged,
}

impl CubeRequirement {
    /// Every value, in the original's order.
    pub const ALL: [Self; 5] = [
        Self::None,
        Self::OptionalLazy,
        Self::OptionalActive,
        Self::RequiredLazy,
        Self::RequiredManaged,
    ];
    /// The names `behaviorModifiers.cubeConnectionRequirements` takes, in the order of
    /// [`ALL`](Self::ALL).
    pub const NAMES: [&'static str; 5] = [
        "None",
        "OptionalLazy",
        "OptionalActive",
        "RequiredLazy",
        "RequiredManaged",
    ];
    /// True for the two required ones.
    pub fn required(self) -> bool {
        matches!(self, Self::RequiredLazy | Self::RequiredManaged)
    }
}

/// The original's `BehaviorOperationModifiers` (spec §1): when a behavior may activate, and
/// whether it ends as soon as it delegates nothing.
///
/// A behavior's modifiers are computed once when the tree is built: the base defaults
/// ([`BASE`](Self::BASE)), then the instance's JSON `behaviorModifiers`, then the class's
/// [`Behavior::operation_modifiers`](super::Behavior::operation_modifiers) hook, which overwrites whatever it assigns (as the
/// original's `GetBehaviorOperationModifiers` ran after the JSON was applied).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OperationModifiers {
    /// `wantsToBeActivatedWhenCarryingObject` (base: false).
    pub when_carrying: bool,
    /// `wantsToBeActivatedWhenOffTreads` (base: false).
    pub when_off_treads: bool,
    /// `wantsToBeActivatedWhenOnCharger` (base: true).
    pub when_on_charger: bool,
    /// `behaviorAlwaysDelegates` (base: **true**, the original's): at the end of any of
    /// its updates in which it delegates nothing, the behavior ends. Not settable from
    /// JSON; each class says.
    pub always_delegates: bool,
    /// `cubeConnectionRequirements`.
    pub cube: CubeRequirement,
    /// `connectToCubeInBackground`.
    pub connect_to_cube_in_background: bool,
    /// `ensuresCubeConnectionAtDelegation`.
    pub ensures_cube_connection_at_delegation: bool,
}

impl OperationModifiers {
    /// The original's base defaults.
    pub const BASE: Self = Self {
        when_carrying: false,
        when_off_treads: false,
        when_on_charger: true,
        always_delegates: true,
        cube: CubeRequirement::None,
        connect_to_cube_in_background: false,
        ensures_cube_connection_at_delegation: false,
    };

    /// All three "wants to be activated when" gates open.
    pub fn allow_everywhere(&mut self) {
        self.when_carrying = true;
        self.when_off_treads = true;
        self.when_on_charger = true;
    }

    /// The three gates as the OR over `children` (what every dispatcher does).
    pub fn or_over(&mut self, children: impl IntoIterator<Item = OperationModifiers>) {
        self.when_carrying = false;
        self.when_off_treads = false;
        self.when_on_charger = false;
        for c in children {
            self.when_carrying |= c.when_carrying;
            self.when_off_treads |= c.when_off_treads;
            self.when_on_charger |= c.when_on_charger;
        }
    }

    /// The activation-gate bits this behavior is blocked by (spec §0 steps 2–5), in the
    /// bits of [`World::blocking`]: 1 off treads, 2 on the charger, 4 carrying, 8 a cube
    /// connection required.
    pub(crate) fn gate_bits(&self) -> u8 {
        let mut bits = 0;
        if !self.when_off_treads {
            bits |= 1;
        }
        if !self.when_on_charger {
            bits |= 2;
        }
        if !self.when_carrying {
            bits |= 4;
        }
        if self.cube.required() {
            bits |= 8;
        }
        bits
    }
}

impl Default for OperationModifiers {
    fn default() -> Self {
        Self::BASE
    }
}
