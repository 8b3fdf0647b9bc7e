//! What each class of the original decides and does, as data: its predicate ([`Pred`],
//! original-class-predicates.md "Pred") and its outcome ([`Does`], "Does" / "Ends"). One
//! file per family, as [`crate::specs`] (which gives the same classes' keys and modifiers).
//! A class implemented natively (`crate::classes`) has its logic in code; the table-driven
//! class (`classes::table`) runs every other class from these entries.

pub mod coordinators;
pub mod cubes;
pub mod dev;
pub mod faces;
pub mod games;
pub mod generic;
pub mod navigation;
pub mod physical;
pub mod reads;
pub mod sensing;
pub mod voice;

use crate::does::Does;
use crate::predicate::Pred;

/// One class's predicate and outcome.
#[derive(Clone, Copy, Debug)]
pub struct ClassLogic {
    /// The class.
    pub name: &'static str,
    /// Its own predicate (step 7 of `WantsToBeActivated`).
    pub pred: Pred,
    /// What it does once active and how it ends.
    pub does: Does,
}

/// The families, in the order of [`crate::specs::FAMILIES`].
pub const FAMILIES: &[(&str, &[ClassLogic])] = &[
    ("physical", physical::LOGIC),
    ("sensing", sensing::LOGIC),
    ("voice", voice::LOGIC),
    ("coordinators", coordinators::LOGIC),
    ("navigation", navigation::LOGIC),
    ("faces", faces::LOGIC),
    ("cubes", cubes::LOGIC),
    ("games", games::LOGIC),
    ("dev", dev::LOGIC),
    ("generic", generic::LOGIC),
];

/// Every entry.
pub fn all() -> impl Iterator<Item = &'static ClassLogic> {
    FAMILIES.iter().flat_map(|(_, l)| l.iter())
}

/// The logic of class `name`, if the table has it.
pub fn get(name: &str) -> Option<&'static ClassLogic> {
    all().find(|l| l.name == name)
}
