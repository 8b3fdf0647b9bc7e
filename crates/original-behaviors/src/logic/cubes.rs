//! Class predicates and outcomes of the cubes family (see [`super`]).

use super::ClassLogic;

/// The cubes classes' logic.
pub const LOGIC: &[ClassLogic] = &[];
