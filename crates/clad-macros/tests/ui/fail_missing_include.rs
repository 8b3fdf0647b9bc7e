// An #include no include directory holds.
clad_macros::include_clad!("missing_include.clad", include_dirs = ["tests/schemas/bad"]);

// Without include_dirs, the only include directory is CARGO_MANIFEST_DIR: the directory of
// the including file is not searched, so robot.clad's `#include "shared.clad"` fails.
mod robot {
    clad_macros::include_clad!("tests/schemas/robot.clad");
}

fn main() {}
