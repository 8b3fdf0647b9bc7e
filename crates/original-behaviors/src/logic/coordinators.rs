//! Class predicates and outcomes of the coordinators family (see [`super`]).

use super::ClassLogic;

/// The coordinators classes' logic.
pub const LOGIC: &[ClassLogic] = &[];
