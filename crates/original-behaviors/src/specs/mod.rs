//! The original engine's behavior classes as data: for each of the 175 classes of the
//! newest community fork, its class-specific JSON keys with type and need, the assignments
//! of its modifier hook, the user intents it claims or drops in code, the behavior IDs its
//! code names, and a one-line summary of what it does and how it ends.
//!
//! Sources: `original-class-predicates.md` (OCP) §2 and §4, `original-behavior-classes.md`
//! (OBC) §1–§4 and §6. Where this table goes beyond or decides against the specs, the key's
//! `note` (or the class's `summary`) says so.
//!
//! One module per family, each a `CLASSES` slice; [`all`] walks them all.

pub mod coordinators;
pub mod cubes;
pub mod dev;
pub mod faces;
pub mod games;
pub mod generic;
pub mod navigation;
pub mod physical;
pub mod sensing;
pub mod types;
pub mod voice;

pub use coordinators::{IN_AIR_IDS, IN_AIR_SUPPRESSING, IN_AIR_UNLOCKING};
pub use types::{
    ClassData, Key, KeyType, Mods, Need, FACE_SELECTION_FACTORS, FACE_SELECTION_PENALTIES_DEFAULT,
};

/// The families, in the order of OCP §2 (the OBC generic classes last).
pub const FAMILIES: &[(&str, &[ClassData])] = &[
    ("physical", physical::CLASSES),
    ("sensing", sensing::CLASSES),
    ("voice", voice::CLASSES),
    ("coordinators", coordinators::CLASSES),
    ("navigation", navigation::CLASSES),
    ("faces", faces::CLASSES),
    ("cubes", cubes::CLASSES),
    ("games", games::CLASSES),
    ("dev", dev::CLASSES),
    ("generic", generic::CLASSES),
];

/// Older names of classes, as older versions of the fork's files give them, and the class
/// each is now: `install` registers the older name as the newer class (same keys, predicate
/// and outcome). ObservingOnCharger is ObservingWithoutTurn before it took a
/// `behaviorTimer` (so that key is optional).
pub const OLDER_NAMES: &[(&str, &str)] = &[
    ("ExploreLookAroundInPlace", "LookAroundInPlace"),
    ("ObservingOnCharger", "ObservingWithoutTurn"),
];

/// Every class, family by family.
pub fn all() -> impl Iterator<Item = &'static ClassData> {
    FAMILIES.iter().flat_map(|(_, classes)| classes.iter())
}

/// The class named `name`, if the table has it.
pub fn class(name: &str) -> Option<&'static ClassData> {
    all().find(|c| c.name == name)
}
