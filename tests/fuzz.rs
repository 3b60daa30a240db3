//! A short run of the C pipeline's mutation fuzzer (`xtask/src/fuzz/`): mutants of the
//! fixtures and examples must never make locksmith fail internally, print invalid JSON or hang.
//! The long run is `cargo xtask fuzz --executions N`.

use std::path::PathBuf;
use std::time::Duration;

use xtask::fuzz;

#[test]
fn mutants_never_crash_or_hang() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let files = fuzz::corpus_files(&root);
    // A spread of the corpus, to keep the run short.
    let picked: Vec<PathBuf> = files.iter().step_by(4).cloned().collect();
    let dir = std::env::temp_dir().join(format!("locksmith-fuzz-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corpus = fuzz::corpus(&picked, &dir);
    assert!(!corpus.is_empty(), "no corpus: is gcc installed?");
    assert!(
        corpus.iter().any(|s| s.shrunk),
        "no seed could be shrunk with its report unchanged"
    );
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

/// The shrinker blanks the header declarations nothing uses and keeps the ones the program's
/// own code needs, directly or through another kept declaration.
#[test]
fn shrinking_keeps_what_the_program_needs() {
    let text = "# 0 \"p.c\"\n\
                # 1 \"/usr/include/h.h\" 1 3 4\n\
                typedef unsigned long size_t;\n\
                typedef struct pair { size_t a; } pair_t;\n\
                extern int unused (const char *__s) __attribute__ ((__nonnull__ (1)));\n\
                enum { RED, GREEN };\n\
                # 3 \"p.c\" 2\n\
                pair_t p;\n\
                int main(void) { return GREEN; }\n";
    let shrunk = fuzz::shrink::shrink(text);
    let kept: Vec<&str> = shrunk.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(
        kept,
        [
            "# 0 \"p.c\"",
            "# 1 \"/usr/include/h.h\" 1 3 4",
            "typedef unsigned long size_t;",
            "typedef struct pair { size_t a; } pair_t;",
            "enum { RED, GREEN };",
            "# 3 \"p.c\" 2",
            "pair_t p;",
            "int main(void) { return GREEN; }",
        ]
    );
    assert_eq!(
        shrunk.lines().count(),
        text.lines().count(),
        "line numbers kept"
    );
}
