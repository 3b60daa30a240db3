//! The code locksmith's developer tools share with its integration tests and benches: the
//! generator of random POSIX-threads programs and the TSan differential oracle ([`cgen`]), the
//! mutation fuzzer of the C pipeline ([`fuzz`]), and the generator of large synthetic servers
//! that `cargo bench --bench check` measures ([`gen_pthreads`]). `cargo xtask …` (`src/main.rs`)
//! runs the first two at scale; `tests/tsan_differential.rs` and `tests/fuzz.rs` run them
//! briefly, through a dev-dependency, and `benches/check.rs` uses the third the same way.
//!
//! This crate must never be a run-time dependency of the `locksmith` package (the tidy test
//! checks it), and nothing here may change what locksmith reports: it only generates programs,
//! runs locksmith on them and compares.

pub mod cgen;
pub mod fuzz;
pub mod gen_pthreads;

use std::path::{Path, PathBuf};

/// The repository's root: the workspace directory this crate sits in.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ sits in the workspace root")
        .to_path_buf()
}
