//! Class predicates and outcomes of the games family (see [`super`]).

use super::ClassLogic;

/// The games classes' logic.
pub const LOGIC: &[ClassLogic] = &[];
