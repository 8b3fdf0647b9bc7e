//! `include_clad!`: the CLAD code generator behind a procedural macro.
//!
//! Not implemented yet: the macro arrives with the `include_clad!` issue. The crate exists
//! now so the workspace layout described in ARCHITECTURE.md is stable.
