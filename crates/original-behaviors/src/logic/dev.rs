//! Class predicates and outcomes of the dev family (see [`super`]).

use super::ClassLogic;

/// The dev classes' logic.
pub const LOGIC: &[ClassLogic] = &[];
