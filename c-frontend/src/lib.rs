//! The C front end of locksmith (DESIGN.md §5): it will run the system preprocessor, parse with
//! `lang-c` with error recovery, map every position back through line markers, lower each function
//! to a small CIL-like IR, and generate LOCKSMITH's labelled-type constraints (with the pthread and
//! libc models) into the shared `solver`.
//!
//! It never prints reports; it returns analysis data for the command-line crate to render.
