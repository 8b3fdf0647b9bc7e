//! Class predicates and outcomes of the sensing family (see [`super`]).

use super::ClassLogic;

/// The sensing classes' logic.
pub const LOGIC: &[ClassLogic] = &[];
