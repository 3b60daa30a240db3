//! What each technique buys, in the style of the paper's table 3: for every test program of
//! `tests/programs/` (and all the fixtures of `tests/races/` together), the number of warnings
//! and the analysis time with every technique on, then with each one switched off in turn. Switching a technique off
//! can only add warnings (or, for linearity, hide a race behind a lock that is not one).
//!
//! ```text
//! cargo xtask ablation
//! ```

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use c_frontend::driver::{self, CheckOptions};
use solver::Technique;

/// The C files of a directory, sorted.
fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|x| x == "c"));
    v.sort();
    v
}

/// The subdirectories of a directory, sorted.
fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_dir());
    v.sort();
    v
}

/// Warnings of one run, or `None` when the run could not be done.
fn warnings(files: &[PathBuf], off: Option<Technique>) -> Option<usize> {
    let mut options = CheckOptions::default();
    if let Some(t) = off {
        options.techniques.disable(t);
    }
    driver::check_on_large_stack(files.to_vec(), options, &solver::stats::Stats::off())
        .and_then(driver::Checked::done)
        .ok()
        .map(|r| r.solution.warnings.len())
}

/// Runs the task; it takes no arguments.
pub fn main(args: Vec<String>) {
    if !args.is_empty() {
        eprintln!("usage: cargo xtask ablation");
        std::process::exit(2);
    }
    let root = xtask::workspace_root();
    // Each row: a name and the runs that make it up (one program, or every fixture file).
    let mut rows: Vec<(String, Vec<Vec<PathBuf>>)> = Vec::new();
    for dir in subdirs(&root.join("tests/programs")) {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        rows.push((name, vec![c_files(&dir)]));
    }
    let fixtures: Vec<Vec<PathBuf>> = subdirs(&root.join("tests/races"))
        .iter()
        .flat_map(|g| c_files(g).into_iter().map(|f| vec![f]))
        .collect();
    rows.push((format!("fixtures ({})", fixtures.len()), fixtures));

    let columns: Vec<Option<Technique>> = std::iter::once(None)
        .chain(Technique::ALL.into_iter().map(Some))
        .collect();
    print!("{:<16}", "program");
    for c in &columns {
        let head = c.map_or("all on".to_string(), |t| {
            format!("--{}", locksmith::switches::flag(t))
        });
        print!(" {head:>18}");
    }
    println!();
    for (name, runs) in &rows {
        print!("{name:<16}");
        for c in &columns {
            let start = Instant::now();
            let total: Option<usize> = runs.iter().map(|files| warnings(files, *c)).sum();
            let took: Duration = start.elapsed();
            let cell = total.map_or("error".to_string(), |n| {
                format!("{n} ({:.2} s)", took.as_secs_f64())
            });
            print!(" {cell:>18}");
        }
        println!();
    }
}
