//! Benchmark of `locksmith check` on the real open-source pthread programs of
//! `../shared/real-programs/` (third-party code, read from there and never copied into the
//! project), beside what the original LOCKSMITH (2006) did with them on this kind of machine.
//!
//! For each program it runs `locksmith check <its .c files>` three times and prints
//! the median wall time, the peak resident memory, the exit status and the number of warnings,
//! then the original's figures from that folder's README. When the folder does not exist (a
//! clone without it) the bench says so and exits successfully.
//!
//! ```text
//! cargo build --release && cargo bench --bench real_programs
//! cargo bench --bench real_programs -- knot zebedee
//! LOCKSMITH_REAL_PROGRAMS=/path/to/real-programs cargo bench --bench real_programs
//! ```

// Each bench compiles the shared module on its own and uses part of it.
#[allow(dead_code)]
mod measure;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use measure::{first_line, locksmith_binary, run_check, Output, RunStatus};

/// Runs per program: the median is reported.
const RUNS: usize = 3;

/// A run slower than this is killed: the programs are meant to take seconds.
const TIMEOUT: Duration = Duration::from_secs(300);

/// The programs, in the order of the folder's README, with the original LOCKSMITH's result there
/// (wall time, peak memory, warnings; or what went wrong).
const PROGRAMS: &[(&str, &str)] = &[
    ("aget", "0.22 s, 64 MB, 27 warnings"),
    ("ctrace", "0.13 s, 3 warnings"),
    ("pfscan", "0.13 s, 6 warnings"),
    ("knot", "14.95 s, 262 MB, 25 warnings"),
    ("smtprc", "11.6 s, 699 MB, 2 warnings"),
    ("ypbind", "crashes on trylock (3.8 s without)"),
    ("zebedee", "99 s, 1.19 GB, 123 warnings"),
    ("automount", "crashes (363 s, 3.7 GB without trylock)"),
    ("zfs-fuse", "75 s, 1.69 GB, 8 warnings"),
    ("mt-daapd", "fails in its C front end"),
];

/// The folder of real programs: `LOCKSMITH_REAL_PROGRAMS`, or `../shared/real-programs` beside
/// the project.
fn programs_dir() -> PathBuf {
    match std::env::var_os("LOCKSMITH_REAL_PROGRAMS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real-programs"),
    }
}

fn main() -> ExitCode {
    let dir = programs_dir();
    if !dir.is_dir() {
        println!(
            "real_programs bench: skipped, {} does not exist (set LOCKSMITH_REAL_PROGRAMS to run it)",
            dir.display()
        );
        return ExitCode::SUCCESS;
    }
    let binary = match locksmith_binary() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("real_programs bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    println!("locksmith check on real programs ({})", binary.display());
    println!(
        "{:<10} {:>7} {:>9} {:>10} {:>5} {:>9}   original LOCKSMITH",
        "program", "lines", "median", "peak RSS", "exit", "warnings"
    );
    for &(name, original) in PROGRAMS {
        if !wanted.is_empty() && !wanted.iter().any(|w| w == name) {
            continue;
        }
        bench_program(&binary, &dir.join(name), name, original);
    }
    ExitCode::SUCCESS
}

fn bench_program(binary: &Path, dir: &Path, name: &str, original: &str) {
    let mut sources: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect(),
        Err(e) => {
            println!("{name:<10} cannot read {}: {e}", dir.display());
            return;
        }
    };
    sources.sort();
    let lines: usize = sources
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .map(|t| t.lines().count())
        .sum();
    let mut times = Vec::new();
    let mut peak_kib = 0;
    let mut rss_bound = false;
    let mut result = Err(String::from("not run"));
    for _ in 0..RUNS {
        let run = match run_check(binary, &sources, TIMEOUT, Output::TextSummary) {
            Ok(run) => run,
            Err(e) => {
                result = Err(e);
                break;
            }
        };
        times.push(run.wall);
        peak_kib = peak_kib.max(run.max_rss_kib);
        rss_bound |= run.rss_is_bound;
        result = match (&run.status, warning_count(&run.stdout)) {
            (RunStatus::Exited(code @ (0 | 1)), Some(w)) => Ok((*code, w)),
            (status, _) => Err(format!("{status}: {}", first_line(&run.stderr))),
        };
        if result.is_err() {
            break;
        }
    }
    match result {
        Ok((code, warnings)) => {
            times.sort();
            let median = times[times.len() / 2];
            println!(
                "{name:<10} {lines:>7} {:>9} {:>10} {code:>5} {warnings:>9}   {original}",
                format!("{:.2} s", median.as_secs_f64()),
                format!(
                    "{}{} MiB",
                    if rss_bound { "<=" } else { "" },
                    peak_kib / 1024
                ),
            );
        }
        Err(message) => println!("{name:<10} {lines:>7}   failed: {message}   {original}"),
    }
}

/// The number of warnings in the summary line that ends a text report
/// (`locksmith: N possible data races`).
fn warning_count(stdout: &[u8]) -> Option<usize> {
    let text = String::from_utf8_lossy(stdout);
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
    last.strip_prefix("locksmith: ")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}
