//! Class predicates and outcomes of the generic family (see [`super`]).

use super::ClassLogic;

/// The generic classes' logic.
pub const LOGIC: &[ClassLogic] = &[];
