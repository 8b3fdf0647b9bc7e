// A schema error is reported at the path literal, with the rendered diagnostic.
clad_macros::include_clad!("tests/schemas/bad/unknown_type.clad");

fn main() {}
