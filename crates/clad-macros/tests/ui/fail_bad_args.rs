// Argument errors, each reported at the offending token.
mod no_args {
    clad_macros::include_clad!();
}
mod not_a_string {
    clad_macros::include_clad!(robot.clad);
}
mod unknown_key {
    clad_macros::include_clad!("robot.clad", include_dir = ["tests/schemas"]);
}
mod missing_comma {
    clad_macros::include_clad!("robot.clad" include_dirs = ["tests/schemas"]);
}
mod dir_not_a_string {
    clad_macros::include_clad!("robot.clad", include_dirs = [tests]);
}
mod dirs_not_a_list {
    clad_macros::include_clad!("robot.clad", include_dirs = "tests/schemas");
}
mod duplicate_key {
    clad_macros::include_clad!("robot.clad", runtime = "::a", runtime = "::b");
}
mod bad_runtime {
    clad_macros::include_clad!("robot.clad", include_dirs = ["tests/schemas"], runtime = "not a path");
}
mod no_such_dir {
    clad_macros::include_clad!("robot.clad", include_dirs = ["tests/schemas", "tests/nowhere"]);
}

fn main() {}
