//! The C front end of locksmith (paper §3): it runs the system preprocessor, parses with `lang-c`
//! with error recovery, maps every position back through line markers, lowers each function to a
//! small CIL-like IR, and generates LOCKSMITH's labelled-type constraints (with the pthread and
//! libc models) into the shared `solver`.
//!
//! It never prints reports; it returns analysis data for the command-line crate to render.

pub mod analysis;
pub mod ctypes;
pub mod embedded;
pub mod gen;
pub mod ir;
pub mod joins;
pub mod lower;
pub mod ltypes;
pub mod parse;
pub mod preprocess;
pub mod srcmap;
pub mod uniqueness;
pub mod views;
