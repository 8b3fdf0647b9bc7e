//! Class predicates and outcomes of the voice family (see [`super`]).

use super::ClassLogic;

/// The voice classes' logic.
pub const LOGIC: &[ClassLogic] = &[];
