//! The long run of the C pipeline's mutation fuzzer (`xtask/src/fuzz/`):
//!
//! ```text
//! cargo xtask fuzz [--executions N] [--seed S] [--save DIR] [--limit SECONDS]
//! ```
//!
//! Prints the executions per second and every finding (internal error, invalid output, hang);
//! `--save DIR` writes each finding's mutant there as a `.i` file to rerun with
//! `locksmith check`. Exits 1 when anything was found.

use std::path::PathBuf;
use std::time::Duration;

use xtask::fuzz;

/// Runs the task on its arguments (those after `fuzz`).
pub fn main(args: Vec<String>) {
    let mut executions = 10_000usize;
    let mut seed = 1u64;
    let mut save: Option<PathBuf> = None;
    let mut limit = 10u64;
    let mut args = args.into_iter();
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
    let root = xtask::workspace_root();
    let dir = std::env::temp_dir().join(format!("locksmith-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let corpus = fuzz::corpus(&fuzz::corpus_files(&root), &dir);
    let bytes: usize = corpus.iter().map(|s| s.text.len()).sum();
    eprintln!(
        "corpus: {} programs ({} shrunk), {} KiB preprocessed",
        corpus.len(),
        corpus.iter().filter(|s| s.shrunk).count(),
        bytes / 1024
    );
    // A long run goes in batches of `BATCH` mutants, batch `b` from the seed `seed * BATCH + b`,
    // with a progress line on standard error after each.
    const BATCH: usize = 50_000;
    let start = std::time::Instant::now();
    let mut done = 0;
    let mut findings = Vec::new();
    for b in 0..executions.div_ceil(BATCH) {
        let count = BATCH.min(executions - b * BATCH);
        let batch_seed = seed.wrapping_mul(BATCH as u64).wrapping_add(b as u64);
        let summary = fuzz::run(&corpus, batch_seed, count, &dir, Duration::from_secs(limit));
        done += summary.executions;
        let hang = summary.executions < count;
        findings.extend(summary.findings);
        eprintln!(
            "{done} executions, {} findings, {:.0} s (this batch: {:.0}/s)",
            findings.len(),
            start.elapsed().as_secs_f64(),
            summary.executions as f64 / summary.elapsed.as_secs_f64()
        );
        if hang {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{done} executions in {secs:.1} s ({:.0}/s), {} findings",
        done as f64 / secs,
        findings.len()
    );
    for (k, (from, found, mutant)) in findings.iter().enumerate() {
        println!("{from}: {found:?}");
        if let Some(dir) = &save {
            std::fs::create_dir_all(dir).expect("the save directory");
            let _ = std::fs::write(dir.join(format!("finding-{seed}-{k}.i")), mutant);
        }
    }
    if !findings.is_empty() {
        std::process::exit(1);
    }
}
