//! Benchmark of `locksmith check` on generated multi-file pthread programs.
//!
//! The analysis is meant to scale to real servers of hundreds of thousands of preprocessed lines,
//! so this bench measures it on synthetic servers of 10k, 100k and 1M preprocessed lines made by
//! the `gen_pthreads` module (deep call chains, locks inside structs, lock helpers, forks in
//! loops, handler tables, one planted race per module). For each size it writes the program to a
//! temporary directory, counts its preprocessed lines with `gcc -E`, runs
//! `locksmith check <files> --format json` three times (once above 100k lines) and prints the
//! median wall time, the peak resident memory of the analysis process, the number of warnings in
//! its JSON output, how many of the planted races they report, and its exit status. A run that fails shows the first line of its stderr
//! instead of numbers, and the bench goes on with the next size. A watchdog kills a run after
//! `--timeout SECS` (default 1800).
//!
//! It runs the release binary next to the bench executable, so build that first:
//!
//! ```text
//! cargo build --release && cargo bench --bench check
//! cargo bench --bench check -- --sizes 10000 50000
//! cargo bench --bench check -- --dump 100000 /tmp/server100k
//! cargo bench --bench check -- --layer 0 --sizes 1000000
//! ```
//!
//! `--dump N DIR` only writes the program of about N lines to DIR, for manual runs of locksmith
//! or gcc on it; it needs no locksmith binary. `--layer K` sets how many modules one chain of
//! update calls crosses ([`gen_pthreads::LAYER_MODULES`] by default; 0 for no bound, which makes
//! what each module reaches grow with the program).

mod gen_pthreads;
// Each bench compiles the shared module on its own and uses part of it.
#[allow(dead_code)]
mod measure;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Duration;

use measure::{first_line, locksmith_binary, run_check, Output, RunStatus};

/// The seed of every generated program, so that runs of the bench compare the same inputs.
const SEED: u64 = 2006;

/// Runs of `locksmith check` per size: the median is reported.
fn runs_for(size: usize) -> usize {
    if size <= 100_000 {
        3
    } else {
        1
    }
}

/// What the command line asked for.
struct Options {
    sizes: Vec<usize>,
    dump: Option<(usize, PathBuf)>,
    timeout: Duration,
    layer: usize,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        sizes: vec![10_000, 100_000, 1_000_000],
        dump: None,
        timeout: Duration::from_secs(1800),
        layer: gen_pthreads::LAYER_MODULES,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut sizes = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--bench" => {}
            "--sizes" => {
                while i + 1 < args.len() && !args[i + 1].starts_with("--") {
                    i += 1;
                    sizes.push(parse_size(&args[i])?);
                }
            }
            "--dump" => {
                if i + 2 >= args.len() {
                    return Err("--dump needs a size and a directory".into());
                }
                options.dump = Some((parse_size(&args[i + 1])?, PathBuf::from(&args[i + 2])));
                i += 2;
            }
            "--timeout" => {
                i += 1;
                let secs = args
                    .get(i)
                    .and_then(|s| s.parse::<u64>().ok())
                    .ok_or("--timeout needs a number of seconds")?;
                options.timeout = Duration::from_secs(secs);
            }
            "--layer" => {
                i += 1;
                options.layer = args
                    .get(i)
                    .and_then(|s| s.parse::<usize>().ok())
                    .ok_or("--layer needs a number of modules")?;
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
        i += 1;
    }
    if !sizes.is_empty() {
        options.sizes = sizes;
    }
    Ok(options)
}

fn parse_size(s: &str) -> Result<usize, String> {
    s.replace('_', "")
        .parse()
        .map_err(|_| format!("not a size: {s:?}"))
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("check bench: {e}");
            eprintln!("usage: cargo bench --bench check -- [--sizes N...] [--dump N DIR] [--timeout SECS] [--layer K]");
            return ExitCode::from(2);
        }
    };

    if let Some((size, dir)) = &options.dump {
        let files = gen_pthreads::generate(*size, SEED, options.layer);
        if let Err(e) = write_program(dir, &files) {
            eprintln!("check bench: cannot write {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        let census = gen_pthreads::census(&files);
        println!(
            "wrote {} files ({} user lines, {} functions, {} fork sites, {} planted races) to {}",
            files.len(),
            census.user_lines,
            census.functions,
            census.fork_sites,
            census.planted_races,
            dir.display()
        );
        return ExitCode::SUCCESS;
    }

    let binary = match locksmith_binary() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("check bench: {e}");
            return ExitCode::FAILURE;
        }
    };

    println!(
        "locksmith check on generated pthread servers ({})",
        binary.display()
    );
    println!(
        "{:>10} {:>12} {:>10} {:>6} {:>10} {:>11} {:>9} {:>8} {:>6}",
        "target",
        "preprocessed",
        "user",
        "files",
        "median",
        "peak RSS",
        "warnings",
        "planted",
        "exit"
    );
    for &size in &options.sizes {
        bench_size(&binary, size, options.timeout, options.layer);
    }
    ExitCode::SUCCESS
}

fn write_program(dir: &Path, files: &[(String, String)]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in files {
        std::fs::write(dir.join(name), text)?;
    }
    Ok(())
}

fn bench_size(binary: &Path, size: usize, timeout: Duration, layer: usize) {
    let files = gen_pthreads::generate(size, SEED, layer);
    let census = gen_pthreads::census(&files);
    let dir = std::env::temp_dir().join(format!(
        "locksmith-check-bench-{}-{size}",
        std::process::id()
    ));
    if let Err(e) = write_program(&dir, &files) {
        println!("{size:>10} cannot write {}: {e}", dir.display());
        return;
    }
    let sources: Vec<PathBuf> = files
        .iter()
        .filter(|(name, _)| name.ends_with(".c"))
        .map(|(name, _)| dir.join(name))
        .collect();
    let preprocessed = preprocessed_lines(&sources)
        .map(|n| n.to_string())
        .unwrap_or_else(|e| format!("({e})"));

    let mut times = Vec::new();
    let mut peak_kib = 0;
    let mut rss_bound = false;
    let mut outcome = Ok((0, 0, 0));
    for _ in 0..runs_for(size) {
        match run_check(binary, &sources, timeout, Output::Json) {
            Ok(run) => {
                times.push(run.wall);
                peak_kib = peak_kib.max(run.max_rss_kib);
                rss_bound |= run.rss_is_bound;
                match (run.status, warning_count(&run.stdout)) {
                    (RunStatus::Exited(code @ (0 | 1)), Some((w, found))) => {
                        outcome = Ok((w, found, code))
                    }
                    (RunStatus::Exited(code @ (0 | 1)), None) => {
                        outcome = Err(format!(
                            "exit {code} without a JSON report: {}",
                            first_line(&run.stderr)
                        ));
                        break;
                    }
                    (status, _) => {
                        outcome = Err(format!("{status}: {}", first_line(&run.stderr)));
                        break;
                    }
                }
            }
            Err(e) => {
                outcome = Err(e);
                break;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);

    let lead = format!(
        "{size:>10} {preprocessed:>12} {:>10} {:>6}",
        census.user_lines,
        sources.len()
    );
    match outcome {
        Ok((warnings, found, code)) => {
            times.sort();
            let median = times[times.len() / 2];
            println!(
                "{lead} {:>10} {:>11} {warnings:>9} {:>8} {code:>6}",
                format!("{:.3} s", median.as_secs_f64()),
                format!(
                    "{}{:.1} MiB",
                    if rss_bound { "<=" } else { "" },
                    peak_kib as f64 / 1024.0
                ),
                format!("{found}/{}", census.planted_races),
            );
        }
        Err(message) => println!("{lead}   failed: {message}"),
    }
    println!(
        "{:>10} ({} functions, {} fork sites, {} planted races)",
        "", census.functions, census.fork_sites, census.planted_races
    );
}

/// Total lines `gcc -E` prints for the sources, system headers included.
fn preprocessed_lines(sources: &[PathBuf]) -> Result<usize, String> {
    let mut total = 0;
    for src in sources {
        let out = Command::new("gcc")
            .args(["-std=gnu11", "-pthread", "-E"])
            .arg(src)
            .stderr(Stdio::null())
            .output()
            .map_err(|e| format!("gcc: {e}"))?;
        if !out.status.success() {
            return Err(format!("gcc -E failed on {}", src.display()));
        }
        total += out.stdout.iter().filter(|&&b| b == b'\n').count();
    }
    Ok(total)
}

/// The length of the `warnings` array of a JSON report, if the output is one, and how many of
/// its warnings are on a planted race (a module's `_unsafe_hits` counter).
fn warning_count(stdout: &[u8]) -> Option<(usize, usize)> {
    let value: serde_json::Value = serde_json::from_slice(stdout).ok()?;
    let warnings = value.get("warnings")?.as_array()?;
    let planted = warnings
        .iter()
        .filter(|w| {
            w["location"]["name"]
                .as_str()
                .is_some_and(|n| n.ends_with("_unsafe_hits"))
        })
        .count();
    Some((warnings.len(), planted))
}
