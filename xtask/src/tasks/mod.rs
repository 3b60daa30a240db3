//! The tasks of `cargo xtask`, one module each: `main` takes the task's own arguments (after the
//! task's name) and runs it to the end, exiting with a non-zero status on a finding or a misuse.
//! A task never edits the repository: it writes only where its flags say, or to the temporary
//! directory.

pub mod ablation;
pub mod fuzz;
pub mod tsan_differential;
