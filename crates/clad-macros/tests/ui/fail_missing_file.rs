// The schema file does not exist.
clad_macros::include_clad!("schemas/robot.clad", include_dirs = ["tests/schemas"]);

fn main() {}
