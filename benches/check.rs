//! Benchmark of `locksmith check` on generated multi-file pthread programs.
//!
//! The analysis is meant to scale to real servers of hundreds of thousands of preprocessed lines,
//! so this bench measures it on synthetic servers of 10k, 100k and 1M preprocessed lines made by
//! the `gen_pthreads` module (deep call chains, locks inside structs, lock helpers, forks in
//! loops, handler tables, one planted race per module). For each size it writes the program to a
//! temporary directory, counts its preprocessed lines with `gcc -E`, runs
//! `locksmith check <files> --format json` three times (once above 100k lines; `--runs K` runs it
//! K times at every size) and prints the median wall time, the peak resident memory of the
//! analysis process, the number of warnings in its JSON output, how many of the planted races
//! they report, and its exit status. A run that
//! fails shows the first line of its stderr instead of numbers, and the bench goes on with the
//! next size. A watchdog kills a run after `--timeout SECS` (default 1800).
//!
//! `--shape NAME` chooses what the programs are made of (`gen_pthreads::Shape`): `server` (the
//! default, the server alone, byte-identical to the generator before shapes), `pool` (a thread
//! pool running function pointers), `callbacks` (callbacks handed to a library locksmith does
//! not see; its `lib.c` is written but not analysed), `forks` (hundreds of distinct fork sites),
//! `bigstruct` (one large struct shared by every module through pointers), `macros` (lock
//! macros, a few lock calls per line), `lazy` (a reader thread started by the first request,
//! from any of the requests of every module), `all` (those six), or `interp` (an embedded
//! interpreter: every module registers a table of C functions that call back into its
//! dispatcher, one cycle of calls through the registry; not part of `all`), or one of four
//! shapes with a place in `server.c` that grows with the program (not part of `all` either):
//! `dispatch` (a bytecode engine, one function with a case per module operation), `drivers` (a
//! pager calling every module's I/O methods through one pointer), `spawn` (one function with
//! a `pthread_create` per module task) or `commands` (a command table, each command counting
//! in a counter of its own in its worker's statistics); `--shape all-shapes`
//! runs the sizes for each shape in turn, with a table for each, each shape in a process of its
//! own (so that the large reports of one shape do not raise the bench's own peak memory, which
//! bounds what it can tell of the next shape's, see `measure::run_check`).
//!
//! `--phases` adds `--timings` to each run and prints each phase's time (the median over the
//! runs) for each size; after the sizes of a shape it prints a table of the phases with the
//! growth exponent between consecutive sizes, `log(t2/t1) / log(n2/n1)` with n the preprocessed
//! lines, and with three sizes or more between the first and the last too (over a wider range,
//! the run-to-run noise of each time weighs less in the exponent): `-` when the phase took under 5 ms at the smaller size, `!` after an exponent above
//! 1.2. A phase is whatever `--timings` names (`timing: NAME SECS s ...` on stderr), so new
//! phases need no change here. The phases of a run that timed out or failed are those it
//! finished. `--jobs N` passes `--jobs N` to locksmith: with 1, each phase runs alone (the
//! deadlock check after the race check, not beside it on the other core), so that its time is
//! its own and not what it shares the machine's two cores and caches with.
//!
//! `--counts` adds one run per size with `LOCKSMITH_STATS=1` and `--jobs 1` and prints, after
//! the sizes, the growth exponent of every count the developer's statistics give (nodes,
//! instantiations, CFL entries, facts, contexts, lock-call facts, ...) in the same table: the
//! work each phase does, without the noise of a shared machine's timings, so that a phase
//! doing more work per line as the program grows shows apart from one whose data outgrew the
//! caches. Counts under 1000 at the smaller size get no exponent.
//!
//! It runs the release binary next to the bench executable, so build that first:
//!
//! ```text
//! cargo build --release && cargo bench --bench check
//! cargo bench --bench check -- --sizes 10000 50000
//! cargo bench --bench check -- --shape all-shapes --phases --runs 3 --sizes 10000 100000 1000000
//! cargo bench --bench check -- --dump 100000 /tmp/pool100k --shape pool
//! cargo bench --bench check -- --layer 0 --sizes 1000000
//! cargo bench --bench check -- --self-check --tsan
//! ```
//!
//! `--dump N DIR` only writes the program of about N lines to DIR (with `all-shapes`, each shape
//! to `DIR/<shape>`), for manual runs of locksmith or gcc on it; it needs no locksmith binary.
//! Give locksmith every `.c` file but `lib.c`. `--layer K` sets how many modules make one layer,
//! the modules a module's calls reach ([`gen_pthreads::LAYER_MODULES`] by default; 0 for no
//! bound, which makes what each module reaches grow with the program). `--module-lines L` sets
//! the user lines of each module ([`gen_pthreads::MODULE_LINES`] by default, at every size; 0
//! for the generator before 2026-12-03: one file per 12,500 preprocessed lines, so the 10k
//! programs' modules were a fifth the size of the larger programs').
//!
//! `--self-check` checks the generator instead of measuring locksmith, in seconds: the server of
//! 10k lines is still byte-identical to the generator's output before shapes, and for each shape
//! (every shape unless `--shape` is given) and size (10k unless `--sizes` is given) the program is
//! the same when generated twice, has one planted race per module, is within 15% of its line
//! target, compiles with `gcc -std=gnu11 -Wall -Werror -pthread`, and runs to its end within
//! two minutes. With `--tsan` it also builds it with `-fsanitize=thread` and runs it with 100
//! iterations and 8 threads per group: every ThreadSanitizer report must be a data race on a
//! planted `_unsafe_hits` counter (which of those it finds depends on how the threads overlap).

// Each bench compiles the shared module on its own and uses part of it.
#[allow(dead_code)]
mod measure;

use std::collections::BTreeSet;
use std::io::{Read, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use measure::{first_line, locksmith_binary, run_check_with, Output, RunStatus};
use xtask::gen_pthreads::{self, Shape};

/// The seed of every generated program, so that runs of the bench compare the same inputs.
const SEED: u64 = 2006;

/// The FNV-1a hash (see [`program_hash`]) of the 10k-line server of [`SEED`] and the default
/// layer as the generator wrote it before it had shapes: `--self-check` checks that the server
/// shape still is that program, so that figures measured before and after compare.
const SERVER_10K_HASH: u64 = 0x7082_ea38_f144_adaf;

/// A phase faster than this (seconds) at the smaller of two sizes gets no growth exponent: its
/// time is mostly noise.
const MIN_PHASE_SECS: f64 = 0.005;

/// Growth exponents above this are flagged with `!`.
const FLAG_EXPONENT: f64 = 1.2;

/// A count smaller than this at the smaller of two sizes gets no growth exponent.
const MIN_COUNT: f64 = 1000.0;

const USAGE: &str = "usage: cargo bench --bench check -- [--sizes N...] [--shape NAME|all-shapes] \
[--phases] [--counts] [--runs K] [--jobs N] [--dump N DIR] [--timeout SECS] [--layer K] [--module-lines L] [--self-check [--tsan]]\n\
shapes: server (default), pool, callbacks, forks, bigstruct, macros, lazy, all, interp, \
dispatch, drivers, spawn, commands";

/// Runs of `locksmith check` per size (`--runs K` when given): the median is reported.
fn runs_for(size: usize, options: &Options) -> usize {
    if let Some(k) = options.runs {
        k
    } else if size <= 100_000 {
        3
    } else {
        1
    }
}

/// What the command line asked for.
struct Options {
    sizes: Vec<usize>,
    sizes_given: bool,
    shapes: Vec<Shape>,
    shape_given: bool,
    phases: bool,
    counts: bool,
    /// `--runs K`: runs per size, instead of [`runs_for`]'s default.
    runs: Option<usize>,
    /// `--jobs N`, passed on to locksmith.
    jobs: Option<String>,
    dump: Option<(usize, PathBuf)>,
    timeout: Duration,
    layout: gen_pthreads::Layout,
    self_check: bool,
    tsan: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        sizes: vec![10_000, 100_000, 1_000_000],
        sizes_given: false,
        shapes: vec![Shape::Server],
        shape_given: false,
        phases: false,
        counts: false,
        runs: None,
        jobs: None,
        dump: None,
        timeout: Duration::from_secs(1800),
        layout: gen_pthreads::Layout::default(),
        self_check: false,
        tsan: false,
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
            "--shape" => {
                i += 1;
                let name = args.get(i).ok_or("--shape needs a name")?;
                options.shapes = if name == "all-shapes" {
                    Shape::EVERY.to_vec()
                } else {
                    vec![Shape::from_name(name).ok_or(format!("unknown shape {name:?}"))?]
                };
                options.shape_given = true;
            }
            "--phases" => options.phases = true,
            "--counts" => options.counts = true,
            "--jobs" => {
                i += 1;
                let n = args
                    .get(i)
                    .filter(|s| s.parse::<usize>().is_ok_and(|n| n > 0))
                    .ok_or("--jobs needs a positive number of threads")?;
                options.jobs = Some(n.clone());
            }
            "--runs" => {
                i += 1;
                options.runs = Some(
                    args.get(i)
                        .and_then(|s| s.parse::<usize>().ok())
                        .filter(|&k| k > 0)
                        .ok_or("--runs needs a positive number of runs")?,
                );
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
                options.layout.layer = args
                    .get(i)
                    .and_then(|s| s.parse::<usize>().ok())
                    .ok_or("--layer needs a number of modules")?;
            }
            "--module-lines" => {
                i += 1;
                options.layout.module_lines = args
                    .get(i)
                    .and_then(|s| s.parse::<usize>().ok())
                    .ok_or("--module-lines needs a number of lines")?;
            }
            "--self-check" => options.self_check = true,
            "--tsan" => options.tsan = true,
            other => return Err(format!("unknown argument {other:?}")),
        }
        i += 1;
    }
    if !sizes.is_empty() {
        options.sizes = sizes;
        options.sizes_given = true;
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
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };

    if let Some((size, dir)) = &options.dump {
        return dump(&options, *size, dir);
    }
    if options.self_check {
        return self_check(&options);
    }

    let binary = match locksmith_binary() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("check bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    if options.shapes.len() > 1 {
        return run_shapes_apart(&options.shapes);
    }

    for &shape in &options.shapes {
        println!(
            "locksmith check on generated pthread programs, shape {} ({})",
            shape.name(),
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
        let results: Vec<SizeResult> = options
            .sizes
            .iter()
            .map(|&size| bench_size(&binary, size, shape, &options))
            .collect();
        if options.phases {
            print_growth(&results);
        }
        if options.counts {
            print_counts(&results);
        }
    }
    ExitCode::SUCCESS
}

/// Runs this bench once per shape, each in a process of its own with `--shape NAME` and the
/// other arguments as given. The bench keeps a run's whole JSON report, which can be hundreds of
/// megabytes at 1M lines, and a child's peak memory can only be told apart from the peak of the
/// bench itself when it is above it (see `measure::run_check`): in one process, one shape's large
/// reports would turn every later figure into a bound.
fn run_shapes_apart(shapes: &[Shape]) -> ExitCode {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("check bench: cannot find the bench executable: {e}");
            return ExitCode::FAILURE;
        }
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut failed = false;
    for (k, shape) in shapes.iter().enumerate() {
        let mut shape_args = args.clone();
        if let Some(i) = shape_args.iter().position(|a| a == "--shape") {
            shape_args[i + 1] = shape.name().to_string();
        }
        if k > 0 {
            println!();
        }
        // The child writes to the same stdout: what this process printed goes first.
        if let Err(e) = std::io::stdout().flush() {
            eprintln!("check bench: cannot write the output: {e}");
            return ExitCode::FAILURE;
        }
        match Command::new(&exe).args(&shape_args).status() {
            Ok(status) if status.success() => {}
            Ok(status) => {
                eprintln!("check bench: shape {}: {status}", shape.name());
                failed = true;
            }
            Err(e) => {
                eprintln!("check bench: cannot run {}: {e}", exe.display());
                return ExitCode::FAILURE;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `--dump`: writes the program of each chosen shape.
fn dump(options: &Options, size: usize, dir: &Path) -> ExitCode {
    for &shape in &options.shapes {
        let dir = if options.shapes.len() > 1 {
            dir.join(shape.name())
        } else {
            dir.to_path_buf()
        };
        let files = gen_pthreads::generate(size, SEED, options.layout, shape);
        if let Err(e) = write_program(&dir, &files) {
            eprintln!("check bench: cannot write {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
        let census = gen_pthreads::census(&files);
        println!(
            "wrote {} files of shape {} ({} user lines, {} functions, {} fork sites, {} planted races) to {}",
            files.len(),
            shape.name(),
            census.user_lines,
            census.functions,
            census.fork_sites,
            census.planted_races,
            dir.display()
        );
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

/// The paths of the files of a program written to `dir` that locksmith analyses.
fn analysed_sources(dir: &Path, files: &[(String, String)]) -> Vec<PathBuf> {
    files
        .iter()
        .filter(|(name, _)| gen_pthreads::is_analysed(name))
        .map(|(name, _)| dir.join(name))
        .collect()
}

/// What one size of one shape measured, for the table of growth exponents.
struct SizeResult {
    target: usize,
    preprocessed: Option<usize>,
    /// The median wall time, when every run ended normally.
    wall: Option<f64>,
    /// Each phase's median time over the runs that reported it, in the order `--timings`
    /// first printed them.
    phases: Vec<(String, f64)>,
    /// With `--counts`: each count of the developer's statistics, in the order printed.
    counts: Vec<(String, f64)>,
}

fn bench_size(binary: &Path, size: usize, shape: Shape, options: &Options) -> SizeResult {
    let files = gen_pthreads::generate(size, SEED, options.layout, shape);
    let census = gen_pthreads::census(&files);
    let mut result = SizeResult {
        target: size,
        preprocessed: None,
        wall: None,
        phases: Vec::new(),
        counts: Vec::new(),
    };
    let dir = std::env::temp_dir().join(format!(
        "locksmith-check-bench-{}-{}-{size}",
        std::process::id(),
        shape.name()
    ));
    if let Err(e) = write_program(&dir, &files) {
        println!("{size:>10} cannot write {}: {e}", dir.display());
        return result;
    }
    let sources = analysed_sources(&dir, &files);
    let preprocessed = preprocessed_lines(&sources);
    result.preprocessed = preprocessed.as_ref().ok().copied();
    let preprocessed = preprocessed
        .map(|n| n.to_string())
        .unwrap_or_else(|e| format!("({e})"));

    let mut extra: Vec<&str> = Vec::new();
    if options.phases {
        extra.push("--timings");
    }
    if let Some(n) = &options.jobs {
        extra.extend(["--jobs", n]);
    }
    let mut times = Vec::new();
    let mut phase_runs: Vec<Vec<(String, f64)>> = Vec::new();
    let mut peak_kib = 0;
    let mut rss_bound = false;
    let mut outcome = Ok((0, 0, 0));
    for _ in 0..runs_for(size, options) {
        match run_check_with(binary, &sources, &extra, &[], options.timeout, Output::Json) {
            Ok(run) => {
                phase_runs.push(phase_timings(&run.stderr));
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
                    (RunStatus::TimedOut, _) => {
                        outcome = Err(format!("timed out after {:.0} s", run.wall.as_secs_f64()));
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
    if options.counts && outcome.is_ok() {
        let stats = [("LOCKSMITH_STATS", "1")];
        result.counts = run_check_with(
            binary,
            &sources,
            &["--jobs", "1"],
            &stats,
            options.timeout,
            Output::Json,
        )
        .map(|run| stat_counts(&run.stderr))
        .unwrap_or_default();
    }
    let _ = std::fs::remove_dir_all(&dir);
    result.phases = median_phases(&phase_runs);

    let lead = format!(
        "{size:>10} {preprocessed:>12} {:>10} {:>6}",
        census.user_lines,
        sources.len()
    );
    match outcome {
        Ok((warnings, found, code)) => {
            times.sort();
            let median = times[times.len() / 2];
            result.wall = Some(median.as_secs_f64());
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
    if options.phases {
        let list: Vec<String> = result
            .phases
            .iter()
            .map(|(name, secs)| format!("{name} {secs:.3}"))
            .collect();
        println!(
            "{:>10} phases (s): {}",
            "",
            if list.is_empty() {
                "none reported".to_string()
            } else {
                list.join(", ")
            }
        );
    }
    result
}

/// The phases of `--timings` output: each line `timing: NAME SECS s ...` gives NAME (which may
/// hold spaces) and SECS, the first number followed by the word `s`.
fn phase_timings(stderr: &[u8]) -> Vec<(String, f64)> {
    let text = String::from_utf8_lossy(stderr);
    let mut phases = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("timing:") else {
            continue;
        };
        let words: Vec<&str> = rest.split_whitespace().collect();
        let Some(i) = (1..words.len().saturating_sub(1))
            .find(|&i| words[i + 1] == "s" && words[i].parse::<f64>().is_ok())
        else {
            continue;
        };
        let secs = words[i].parse::<f64>().unwrap_or_default();
        phases.push((words[..i].join(" "), secs));
    }
    phases
}

/// The counts of `LOCKSMITH_STATS` output: each line `stats: NAME: N` whose value is a whole
/// number (the lines that end in `s` are times).
fn stat_counts(stderr: &[u8]) -> Vec<(String, f64)> {
    let text = String::from_utf8_lossy(stderr);
    text.lines()
        .filter_map(|line| {
            let (name, value) = line.strip_prefix("stats: ")?.rsplit_once(": ")?;
            Some((name.to_string(), value.trim().parse::<u64>().ok()? as f64))
        })
        .collect()
}

/// Each phase's median over the runs that reported it, in the order of first appearance.
fn median_phases(runs: &[Vec<(String, f64)>]) -> Vec<(String, f64)> {
    let mut names: Vec<&str> = Vec::new();
    for run in runs {
        for (name, _) in run {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    names
        .into_iter()
        .map(|name| {
            let mut times: Vec<f64> = runs
                .iter()
                .flat_map(|run| run.iter().filter(|(n, _)| n == name).map(|(_, t)| *t))
                .collect();
            times.sort_by(f64::total_cmp);
            (name.to_string(), times[times.len() / 2])
        })
        .collect()
}

/// The table of phase times by size with the growth exponent between consecutive sizes.
fn print_growth(results: &[SizeResult]) {
    println!(
        "phase times (s) and growth exponents log(t2/t1)/log(n2/n1), n = preprocessed lines \
         ('-': under {:.0} ms at the smaller size, '!': above {FLAG_EXPONENT})",
        MIN_PHASE_SECS * 1000.0
    );
    let mut rows = rows_by_name(results, |r| &r.phases);
    rows.push((
        "(wall time, median)".to_string(),
        results.iter().map(|r| r.wall).collect(),
    ));
    print_table(results, "phase", &rows, MIN_PHASE_SECS, |t| {
        format!("{t:.3}")
    });
}

/// With `--counts`: the table of the developer's statistics' counts by size, with the growth
/// exponent of each between consecutive sizes.
fn print_counts(results: &[SizeResult]) {
    println!(
        "counts (LOCKSMITH_STATS=1) and growth exponents log(c2/c1)/log(n2/n1), n = preprocessed \
         lines ('-': under {MIN_COUNT} at the smaller size, '!': above {FLAG_EXPONENT})"
    );
    let rows = rows_by_name(results, |r| &r.counts);
    print_table(results, "count", &rows, MIN_COUNT, |c| format!("{c:.0}"));
}

/// For each name some size reported (in the order first reported), its value at each size.
type Rows = Vec<(String, Vec<Option<f64>>)>;

fn rows_by_name(
    results: &[SizeResult],
    values: impl Fn(&SizeResult) -> &Vec<(String, f64)>,
) -> Rows {
    let mut names: Vec<&String> = Vec::new();
    for r in results {
        for (name, _) in values(r) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
        .into_iter()
        .map(|name| {
            let at_sizes = results
                .iter()
                .map(|r| values(r).iter().find(|(n, _)| n == name).map(|(_, v)| *v))
                .collect();
            (name.clone(), at_sizes)
        })
        .collect()
}

/// Prints `rows` with a column per size and the growth exponent over each step between sizes
/// (values under `min` at the smaller size get none).
fn print_table(
    results: &[SizeResult],
    what: &str,
    rows: &Rows,
    min: f64,
    show: impl Fn(f64) -> String,
) {
    let width = rows
        .iter()
        .map(|(name, _)| name.len())
        .max()
        .unwrap_or(0)
        .max(24);
    let mut head = format!("{what:<width$}");
    for r in results {
        head.push_str(&format!(" {:>10}", r.target));
    }
    // Each step between sizes, and with three sizes or more the whole range too.
    let mut spans: Vec<(usize, usize)> = (1..results.len()).map(|i| (i - 1, i)).collect();
    if results.len() >= 3 {
        spans.push((0, results.len() - 1));
    }
    for &(a, b) in &spans {
        head.push_str(&format!(
            " {:>16}",
            format!(
                "{}->{}",
                short_size(results[a].target),
                short_size(results[b].target)
            )
        ));
    }
    println!("{head}");
    for (name, values) in rows {
        let mut line = format!("{name:<width$}");
        for v in values {
            line.push_str(&format!(" {:>10}", v.map_or("?".to_string(), &show)));
        }
        for &(a, b) in &spans {
            let e = match (
                results[a].preprocessed,
                results[b].preprocessed,
                values[a],
                values[b],
            ) {
                (Some(n1), Some(n2), Some(v1), Some(v2)) => exponent(n1, n2, v1, v2, min),
                _ => "?".to_string(),
            };
            line.push_str(&format!(" {e:>16}"));
        }
        println!("{line}");
    }
}

/// `log(t2/t1) / log(n2/n1)`, flagged with `!` above [`FLAG_EXPONENT`]; `-` when `t1` is under
/// `min`.
fn exponent(n1: usize, n2: usize, t1: f64, t2: f64, min: f64) -> String {
    if t1 < min || t2 <= 0.0 || n1 == 0 || n2 == n1 {
        return "-".to_string();
    }
    let e = (t2 / t1).ln() / (n2 as f64 / n1 as f64).ln();
    if e > FLAG_EXPONENT {
        format!("{e:.2} !")
    } else {
        format!("{e:.2}")
    }
}

fn short_size(n: usize) -> String {
    if n >= 1_000_000 && n.is_multiple_of(1_000_000) {
        format!("{}M", n / 1_000_000)
    } else if n >= 1_000 && n.is_multiple_of(1_000) {
        format!("{}k", n / 1_000)
    } else {
        n.to_string()
    }
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

/// FNV-1a over the files sorted by name, each as its name, a zero byte, its text, a zero byte.
fn program_hash(files: &[(String, String)]) -> u64 {
    let mut sorted: Vec<&(String, String)> = files.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, text) in sorted {
        for &b in name
            .as_bytes()
            .iter()
            .chain([0u8].iter())
            .chain(text.as_bytes())
            .chain([0u8].iter())
        {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The checks of `--self-check` so far.
struct Checks {
    failures: usize,
}

impl Checks {
    fn report(&mut self, ok: bool, what: String) {
        println!("{} {what}", if ok { "ok  " } else { "FAIL" });
        if !ok {
            self.failures += 1;
        }
    }
}

/// `--self-check`: see the module documentation. Prints one line per check and fails if any
/// failed; the directory of a program that failed a check is kept.
fn self_check(options: &Options) -> ExitCode {
    let mut checks = Checks { failures: 0 };

    let server =
        gen_pthreads::generate(10_000, SEED, gen_pthreads::Layout::default(), Shape::Server);
    let hash = program_hash(&server);
    checks.report(
        hash == SERVER_10K_HASH,
        format!("server 10000: hash {hash:#018x} (expected {SERVER_10K_HASH:#018x}, the generator before shapes)"),
    );

    let shapes = if options.shape_given {
        options.shapes.clone()
    } else {
        Shape::EVERY.to_vec()
    };
    let sizes = if options.sizes_given {
        options.sizes.clone()
    } else {
        vec![10_000]
    };
    for &shape in &shapes {
        for &size in &sizes {
            let what = format!("{} {size}", shape.name());
            let files = gen_pthreads::generate(size, SEED, options.layout, shape);
            checks.report(
                files == gen_pthreads::generate(size, SEED, options.layout, shape),
                format!("{what}: the same program when generated twice"),
            );
            let census = gen_pthreads::census(&files);
            let units = files
                .iter()
                .filter(|(n, _)| gen_pthreads::is_analysed(n))
                .count();
            checks.report(
                census.planted_races == units,
                format!(
                    "{what}: {} planted races in {units} modules ({} user lines, {} functions, {} fork sites)",
                    census.planted_races, census.user_lines, census.functions, census.fork_sites
                ),
            );
            let dir = std::env::temp_dir().join(format!(
                "locksmith-check-selfcheck-{}-{}-{size}",
                std::process::id(),
                shape.name()
            ));
            if let Err(e) = write_program(&dir, &files) {
                checks.report(
                    false,
                    format!("{what}: cannot write {}: {e}", dir.display()),
                );
                continue;
            }
            let before = checks.failures;
            match preprocessed_lines(&analysed_sources(&dir, &files)) {
                Ok(n) => {
                    let ratio = n as f64 / size as f64;
                    checks.report(
                        (0.85..=1.15).contains(&ratio),
                        format!("{what}: {n} preprocessed lines, {ratio:.3} of the target"),
                    );
                }
                Err(e) => checks.report(false, format!("{what}: {e}")),
            }
            let all_c: Vec<PathBuf> = files
                .iter()
                .filter(|(n, _)| n.ends_with(".c"))
                .map(|(n, _)| dir.join(n))
                .collect();
            let (ok, note) = build_and_run(&dir, &all_c, &["-O1"], "prog", false);
            checks.report(ok, format!("{what}: gcc -Wall -Werror, run: {note}"));
            if options.tsan && ok {
                let (ok, note) = build_and_run(
                    &dir,
                    &all_c,
                    &["-fsanitize=thread", "-g", "-O1"],
                    "prog-tsan",
                    true,
                );
                checks.report(ok, format!("{what}: ThreadSanitizer: {note}"));
            }
            if checks.failures == before {
                let _ = std::fs::remove_dir_all(&dir);
            } else {
                println!("     (kept {})", dir.display());
            }
        }
    }
    if checks.failures == 0 {
        println!("self-check passed");
        ExitCode::SUCCESS
    } else {
        println!("self-check: {} failed", checks.failures);
        ExitCode::FAILURE
    }
}

/// The arguments of a run under ThreadSanitizer: iterations per worker, threads per group.
const TSAN_ARGS: [&str; 2] = ["100", "8"];

/// Compiles the sources with `gcc -std=gnu11 -Wall -Werror -pthread` and `flags` into
/// `dir/exe` and runs it with its default arguments. With `tsan`, the run's reports must all be
/// data races on planted counters. Returns whether all went well and what happened.
fn build_and_run(
    dir: &Path,
    sources: &[PathBuf],
    flags: &[&str],
    exe: &str,
    tsan: bool,
) -> (bool, String) {
    let exe = dir.join(exe);
    let build = Command::new("gcc")
        .args(["-std=gnu11", "-Wall", "-Werror", "-pthread"])
        .args(flags)
        .arg("-I")
        .arg(dir)
        .args(sources)
        .arg("-o")
        .arg(&exe)
        .stdout(Stdio::null())
        .output();
    match build {
        Err(e) => return (false, format!("cannot run gcc: {e}")),
        Ok(out) if !out.status.success() => {
            return (false, format!("gcc failed: {}", first_line(&out.stderr)))
        }
        Ok(_) => {}
    }
    let start = Instant::now();
    let mut cmd = Command::new(&exe);
    if tsan {
        // More iterations and threads than the default make the workers overlap, so that
        // ThreadSanitizer, which only sees races no lock hand-off happens to order, finds more
        // of the planted ones.
        cmd.args(TSAN_ARGS).env("TSAN_OPTIONS", "halt_on_error=0");
    }
    let (code, stdout, stderr) = match run_with_timeout(&mut cmd, Duration::from_secs(120)) {
        Ok(r) => r,
        Err(e) => return (false, e),
    };
    let secs = start.elapsed().as_secs_f64();
    let printed = String::from_utf8_lossy(&stdout)
        .lines()
        .last()
        .unwrap_or("")
        .to_string();
    if !tsan {
        return (
            code == Some(0) && printed.starts_with("requests "),
            format!("exit {code:?} in {secs:.1} s, printed {printed:?}"),
        );
    }
    // ThreadSanitizer exits with 66 when it reported anything.
    let (planted, others) = tsan_reports(&String::from_utf8_lossy(&stderr));
    let ok = others.is_empty() && matches!(code, Some(0 | 66)) && printed.starts_with("requests ");
    let mut note = format!(
        "exit {code:?} in {secs:.1} s, races reported on {} planted counters {:?}",
        planted.len(),
        planted
    );
    if !others.is_empty() {
        note.push_str(&format!(
            "; {} other reports, first: {}",
            others.len(),
            others[0]
        ));
    }
    (ok, note)
}

/// The planted counters ThreadSanitizer reports races on, and its other reports (their first
/// lines and locations).
fn tsan_reports(stderr: &str) -> (BTreeSet<String>, Vec<String>) {
    let mut planted = BTreeSet::new();
    let mut others = Vec::new();
    for block in stderr.split("WARNING: ThreadSanitizer: ").skip(1) {
        let kind = block.lines().next().unwrap_or("").trim().to_string();
        let location = block
            .lines()
            .find(|l| l.trim_start().starts_with("Location is"))
            .map(|l| l.trim().to_string())
            .unwrap_or_default();
        let global = location
            .strip_prefix("Location is global '")
            .and_then(|rest| rest.split('\'').next());
        match global {
            Some(name) if kind.starts_with("data race") && name.ends_with("_unsafe_hits") => {
                planted.insert(name.to_string());
            }
            _ => others.push(format!("{kind} ({location})")),
        }
    }
    (planted, others)
}

/// Runs a command with its outputs captured, killing it after `timeout`. Returns its exit code
/// (`None` if a signal ended it), its stdout and its stderr.
#[allow(clippy::type_complexity)]
fn run_with_timeout(
    cmd: &mut Command,
    timeout: Duration,
) -> Result<(Option<i32>, Vec<u8>, Vec<u8>), String> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run the program: {e}"))?;
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let stdout = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "did not end within {} s (deadlock?)",
                    timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("wait: {e}")),
        }
    };
    Ok((
        status.code(),
        stdout.join().unwrap_or_default(),
        stderr.join().unwrap_or_default(),
    ))
}
