//! Class predicates and outcomes of the face-screen games (original-class-predicates.md
//! §2.8; see [`super`]).

use super::ClassLogic;
use crate::does::{Anim, Does};
use crate::predicate::Pred;

/// The games' logic.
pub const LOGIC: &[ClassLogic] = &[
    ClassLogic {
        name: "PuzzleMaze",
        pred: Pred::True,
        // Solves a maze on the face display; ends when solved.
        does: Does::Seq(&[
            Does::Anim(Anim::Trigger("CubePounceGetIn")),
            Does::Work,
            Does::Anim(Anim::Trigger("CubePounceGetOutBored")),
        ]),
    },
    ClassLogic {
        name: "SnakeGame",
        pred: Pred::True,
        // Plays until game over.
        does: Does::Work,
    },
];
