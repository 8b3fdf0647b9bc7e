//! Class predicates and outcomes of the physical reactions (original-class-predicates.md
//! §2.1; see [`super`]).

use super::ClassLogic;
use crate::does::{Anim, Does};
use crate::predicate::Pred;

/// The physical reactions' logic.
pub const LOGIC: &[ClassLogic] = &[ClassLogic {
    name: "AskForHelp",
    // Instances gate it with StuckOnEdge / CliffDetected conditions.
    pred: Pred::True,
    // A get-in, then its idle loop forever (the get-in/idle pair by cliff side is the
    // animation's choice; instances end it with a cancel condition).
    does: Does::Seq(&[
        Does::Anim(Anim::Trigger("StuckOnEdgeGetIn")),
        Does::Loop(&Does::Anim(Anim::Trigger("StuckOnEdgeIdle"))),
    ]),
}];
