//! Class predicates and outcomes of the navigation family (see [`super`]).

use super::ClassLogic;

/// The navigation classes' logic.
pub const LOGIC: &[ClassLogic] = &[];
