//! Games and face-screen toys (OCP §2.8).

use super::types::KeyType::*;
use super::types::{opt, ClassData, Mods};

/// The game classes.
pub const CLASSES: &[ClassData] = &[
    ClassData {
        name: "PuzzleMaze",
        keys: &[
            opt("tileSize_pixels", Int, "none", "need and type not stated in OCP"),
            opt("wallSize_pixels", Int, "none", "need and type not stated in OCP"),
            opt("cozmoAvatarSize_pixels", Int, "none", "need and type not stated in OCP"),
            opt("timeBetweenTiles_Sec", Float, "none", "need not stated in OCP"),
            opt("timePauseAtIntersectionMin_Sec", Float, "none", "need not stated in OCP"),
            opt("timePauseAtIntersectionMax_Sec", Float, "none", "need not stated in OCP"),
            opt("chanceRandomWrongChoice", Float, "none", "probability; need not stated in OCP"),
        ],
        mods: Mods::BASE.always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Solves a maze on the face display (CubePounceGetIn / GetOutBored). Ends self-cancel when solved.",
    },
    ClassData {
        name: "SnakeGame",
        keys: &[],
        mods: Mods::BASE.charger(true).always_delegates(false),
        claims: &[],
        drops: &[],
        hard_coded: &[],
        summary: "Plays snake on the face display. Ends self-cancel at game over.",
    },
];
