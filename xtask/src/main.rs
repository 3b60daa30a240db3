//! `cargo xtask TASK [FLAGS…]`: locksmith's developer tools behind one command, after
//! rust-analyzer's `xtask` (the alias is in `.cargo/config.toml` and builds in release mode).
//!
//! ```text
//! cargo xtask fuzz [--executions N] [--seed S] [--save DIR] [--limit SECONDS]
//! cargo xtask tsan-differential [--programs N] [--seed S] [--no-library] [--save DIR] [--jobs J]
//!     [--runs R] [--write DIR]
//! cargo xtask ablation
//! ```
//!
//! Each task is a module of `tasks/`; the code they share with the integration tests is this
//! crate's library (`src/lib.rs`). A task only reads the repository and writes where it is told
//! (or to the temporary directory): it never edits a fixture or an expected output.

mod tasks;

const USAGE: &str = "usage: cargo xtask TASK [FLAGS...]

tasks:
  fuzz               the mutation fuzzer of the C pipeline, at scale
                     [--executions N] [--seed S] [--save DIR] [--limit SECONDS]
  tsan-differential  random POSIX-threads programs, run under TSan and checked by locksmith
                     [--programs N] [--seed S] [--no-library] [--save DIR] [--jobs J] [--runs R]
                     [--write DIR]
  ablation           warnings and time with each analysis technique switched off in turn";

fn main() {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    match task.as_deref() {
        Some("fuzz") => tasks::fuzz::main(rest),
        Some("tsan-differential") => tasks::tsan_differential::main(rest),
        Some("ablation") => tasks::ablation::main(rest),
        Some("help" | "--help" | "-h") => println!("{USAGE}"),
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    }
}
