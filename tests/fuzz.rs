//! A short run of the C pipeline's mutation fuzzer (`tests/support/fuzz/`): mutants of the
//! fixtures and examples must never make locksmith fail internally, print invalid JSON or hang.
//! The long run is `cargo run --release --example fuzz -- --executions N`.

#[path = "support/fuzz/mod.rs"]
mod fuzz;

use std::path::PathBuf;
use std::time::Duration;

#[test]
fn mutants_never_crash_or_hang() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = fuzz::corpus_files(&root);
    // A spread of the corpus, to keep the run short.
    let picked: Vec<PathBuf> = files.iter().step_by(4).cloned().collect();
    let corpus = fuzz::corpus(&picked);
    assert!(!corpus.is_empty(), "no corpus: is gcc installed?");
    let dir = std::env::temp_dir().join(format!("locksmith-fuzz-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let summary = fuzz::run(&corpus, 20261125, 120, &dir, Duration::from_secs(60));
    let _ = std::fs::remove_dir_all(&dir);
    // Each finding's mutant is kept where the failure message says, to rerun it.
    let keep = std::env::temp_dir().join("locksmith-fuzz-findings");
    let report: Vec<String> = summary
        .findings
        .iter()
        .enumerate()
        .map(|(k, (from, found, mutant))| {
            let _ = std::fs::create_dir_all(&keep);
            let path = keep.join(format!("finding-{k}.i"));
            let _ = std::fs::write(&path, mutant);
            format!("{from}: {found:?} (mutant: {})", path.display())
        })
        .collect();
    assert!(report.is_empty(), "{}", report.join("\n"));
    assert_eq!(summary.executions, 120, "every mutant was checked");
    eprintln!(
        "{} mutants checked in {:.1} s",
        summary.executions,
        summary.elapsed.as_secs_f64()
    );
}
