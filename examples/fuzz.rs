//! The long run of the C pipeline's mutation fuzzer (`tests/support/fuzz/`):
//!
//! ```text
//! cargo run --release --example fuzz -- [--executions N] [--seed S] [--save DIR] [--limit SECONDS]
//! ```
//!
//! Prints the executions per second and every finding (internal error, invalid output, hang);
//! `--save DIR` writes each finding's mutant there as a `.i` file to rerun with
//! `locksmith check`. Exits 1 when anything was found.

#[path = "../tests/support/fuzz/mod.rs"]
mod fuzz;

use std::path::PathBuf;
use std::time::Duration;

fn main() {
    let mut executions = 10_000usize;
    let mut seed = 1u64;
    let mut save: Option<PathBuf> = None;
    let mut limit = 10u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--executions" => executions = value().parse().expect("a number"),
            "--seed" => seed = value().parse().expect("a number"),
            "--save" => save = Some(PathBuf::from(value())),
            "--limit" => limit = value().parse().expect("seconds"),
            other => panic!("unknown argument {other}"),
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let corpus = fuzz::corpus(&fuzz::corpus_files(&root));
    eprintln!("corpus: {} programs", corpus.len());
    let dir = std::env::temp_dir().join(format!("locksmith-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let summary = fuzz::run(&corpus, seed, executions, &dir, Duration::from_secs(limit));
    let _ = std::fs::remove_dir_all(&dir);
    let secs = summary.elapsed.as_secs_f64();
    println!(
        "{} executions in {secs:.1} s ({:.0}/s), {} findings",
        summary.executions,
        summary.executions as f64 / secs,
        summary.findings.len()
    );
    for (k, (from, found, mutant)) in summary.findings.iter().enumerate() {
        println!("{from}: {found:?}");
        if let Some(dir) = &save {
            std::fs::create_dir_all(dir).expect("the save directory");
            let _ = std::fs::write(dir.join(format!("finding-{seed}-{k}.i")), mutant);
        }
    }
    if !summary.findings.is_empty() {
        std::process::exit(1);
    }
}
