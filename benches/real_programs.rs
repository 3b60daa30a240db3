//! Benchmark of `locksmith check` on the fourteen real open-source pthread programs that
//! `../shared/real-programs/get.sh` brings into `../real-programs` (third-party code, read from
//! there and never copied into the project), beside what the original LOCKSMITH (2006) did
//! with them on this kind of machine.
//!
//! For each program it runs `locksmith check <its .c files> <its FLAGS>` three times and prints
//! the median wall time, the peak resident memory, the exit status and the number of warnings,
//! then the original's figures. A program's `FLAGS` file (extra arguments, such as chipmunk2d's
//! `--library`) is read from `../shared/real-programs/NAME/`, as `run.sh` reads it. When the
//! programs' folder does not exist (a machine without them) the bench says so and exits
//! successfully.
//!
//! `--baseline BIN` compares the release binary with another locksmith binary (say, one built
//! at the commit before a change): their runs alternate, so that both meet the machine in the
//! same state, and each row gives both medians, their ratio and both warning counts, with `!`
//! after a ratio above 1.25 (and 0.1 s more) or warnings that differ. A change that keeps every
//! report byte-identical can still make one program five times slower, which only such a
//! comparison shows.
//!
//! ```text
//! cargo build --release && cargo bench --bench real_programs
//! cargo bench --bench real_programs -- knot zebedee
//! cargo bench --bench real_programs -- --baseline /tmp/locksmith-before
//! LOCKSMITH_REAL_PROGRAMS=/path/to/real-programs cargo bench --bench real_programs
//! ```

// Each bench compiles the shared module on its own and uses part of it.
#[allow(dead_code)]
mod measure;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use measure::{first_line, locksmith_binary, run_check_with, Output, RunStatus};

/// Runs per program: the median is reported.
const RUNS: usize = 3;

/// A run slower than this is killed: the programs are meant to take seconds.
const TIMEOUT: Duration = Duration::from_secs(300);

/// A comparison with `--baseline` flags a program whose median grew by more than this ratio
/// and by more than [`FLAG_SECONDS`].
const FLAG_RATIO: f64 = 1.25;

/// See [`FLAG_RATIO`]: the small programs' times are mostly noise.
const FLAG_SECONDS: f64 = 0.1;

/// The programs, in the order of `../shared/real-programs/README.md`, with the original
/// LOCKSMITH's result there (wall time, peak memory, warnings; or what went wrong).
const PROGRAMS: &[(&str, &str)] = &[
    ("aget", "0.22 s, 64 MB, 27 warnings"),
    ("ctrace", "0.13 s, 3 warnings"),
    ("pfscan", "0.13 s, 6 warnings"),
    ("knot", "14.95 s, 262 MB, 25 warnings"),
    ("smtprc", "11.6 s, 699 MB, 2 warnings"),
    ("ypbind", "crashes on trylock (3.8 s without)"),
    ("zebedee", "99 s, 1.19 GB, 123 warnings"),
    ("zfs-fuse", "75 s, 1.69 GB, 8 warnings"),
    ("automount", "crashes (363 s, 3.7 GB without trylock)"),
    ("mt-daapd", "fails in its C front end"),
    ("sshfs", "not measured"),
    ("streem", "not measured"),
    ("chipmunk2d", "not measured"),
    ("pigz", "not measured"),
];

/// `../shared/real-programs`, beside the project: the programs' README and `FLAGS` files.
fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/real-programs")
}

/// The folder of the programs: `LOCKSMITH_REAL_PROGRAMS`, else `REAL_PROGRAMS` (as `run.sh`
/// reads it), else `../real-programs` beside the project, where `get.sh` puts them.
fn programs_dir() -> PathBuf {
    ["LOCKSMITH_REAL_PROGRAMS", "REAL_PROGRAMS"]
        .iter()
        .find_map(std::env::var_os)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../real-programs"))
}

/// The extra arguments of a program's check: the words of its `FLAGS` file, if any.
fn flags_of(name: &str) -> Vec<String> {
    std::fs::read_to_string(shared_dir().join(name).join("FLAGS"))
        .map(|text| text.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// What the command line asked for.
struct Options {
    /// Only these programs (all when empty).
    wanted: Vec<String>,
    baseline: Option<PathBuf>,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        wanted: Vec::new(),
        baseline: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => {}
            "--baseline" => {
                let bin = PathBuf::from(args.next().ok_or("--baseline needs a binary")?);
                if !bin.is_file() {
                    return Err(format!("--baseline: no binary at {}", bin.display()));
                }
                options.baseline = Some(bin);
            }
            other if other.starts_with("--") => return Err(format!("unknown argument {other:?}")),
            name => {
                if !PROGRAMS.iter().any(|&(n, _)| n == name) {
                    return Err(format!("unknown program {name:?}"));
                }
                options.wanted.push(name.to_string());
            }
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("real_programs bench: {e}");
            eprintln!("usage: cargo bench --bench real_programs -- [--baseline BIN] [NAME...]");
            return ExitCode::from(2);
        }
    };
    let dir = programs_dir();
    if !dir.is_dir() {
        println!(
            "real_programs bench: skipped, {} does not exist (bring the programs with \
             ../shared/real-programs/get.sh, or set LOCKSMITH_REAL_PROGRAMS)",
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
    println!("locksmith check on real programs ({})", binary.display());
    match &options.baseline {
        None => println!(
            "{:<10} {:>7} {:>9} {:>10} {:>5} {:>9}   original LOCKSMITH",
            "program", "lines", "median", "peak RSS", "exit", "warnings"
        ),
        Some(base) => println!(
            "against {}\n{:<10} {:>7} {:>9} {:>9} {:>7} {:>10} {:>10} {:>9}",
            base.display(),
            "program",
            "lines",
            "baseline",
            "median",
            "ratio",
            "peak base",
            "peak",
            "warnings"
        ),
    }
    for &(name, original) in PROGRAMS {
        if !options.wanted.is_empty() && !options.wanted.iter().any(|w| w == name) {
            continue;
        }
        let Some(program) = Program::read(&dir, name) else {
            continue;
        };
        match &options.baseline {
            None => program.bench(&binary, original),
            Some(base) => program.compare(base, &binary),
        }
    }
    ExitCode::SUCCESS
}

/// One program: its sources, its size and its flags.
struct Program {
    name: String,
    sources: Vec<PathBuf>,
    lines: usize,
    flags: Vec<String>,
}

/// What the runs of one binary on one program measured.
struct Measured {
    /// The median wall time, seconds.
    median: f64,
    peak: String,
    /// Exit status and warnings, or what went wrong.
    result: Result<(i32, usize), String>,
}

impl Program {
    /// The program's `.c` files in `dir/name`, or `None` after saying why they cannot be read.
    fn read(dir: &Path, name: &str) -> Option<Program> {
        let folder = dir.join(name);
        let mut sources: Vec<PathBuf> = match std::fs::read_dir(&folder) {
            Ok(entries) => entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "c"))
                .collect(),
            Err(e) => {
                println!("{name:<10} cannot read {}: {e}", folder.display());
                return None;
            }
        };
        sources.sort();
        let lines = sources
            .iter()
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .map(|t| t.lines().count())
            .sum();
        Some(Program {
            name: name.to_string(),
            sources,
            lines,
            flags: flags_of(name),
        })
    }

    fn bench(&self, binary: &Path, original: &str) {
        let name = &self.name;
        let lines = self.lines;
        let m = self.measure(&[binary]).remove(0);
        match m.result {
            Ok((code, warnings)) => println!(
                "{name:<10} {lines:>7} {:>9} {:>10} {code:>5} {warnings:>9}   {original}",
                format!("{:.2} s", m.median),
                m.peak,
            ),
            Err(message) => println!("{name:<10} {lines:>7}   failed: {message}   {original}"),
        }
    }

    fn compare(&self, baseline: &Path, binary: &Path) {
        let name = &self.name;
        let lines = self.lines;
        let mut both = self.measure(&[baseline, binary]);
        let (after, before) = (both.remove(1), both.remove(0));
        match (&before.result, &after.result) {
            (Ok((_, w0)), Ok((_, w1))) => {
                let ratio = after.median / before.median.max(1e-3);
                let slower = ratio > FLAG_RATIO && after.median - before.median > FLAG_SECONDS;
                println!(
                    "{name:<10} {lines:>7} {:>9} {:>9} {:>7} {:>10} {:>10} {:>9}",
                    format!("{:.2} s", before.median),
                    format!("{:.2} s", after.median),
                    format!("{ratio:.2}{}", if slower { " !" } else { "" }),
                    before.peak,
                    after.peak,
                    if w0 == w1 {
                        w1.to_string()
                    } else {
                        format!("{w0} -> {w1} !")
                    },
                );
            }
            (before, after) => println!(
                "{name:<10} {lines:>7}   baseline: {}   now: {}",
                describe(before),
                describe(after)
            ),
        }
    }

    /// Runs each binary [`RUNS`] times, the binaries in turn within each round.
    fn measure(&self, binaries: &[&Path]) -> Vec<Measured> {
        let extra: Vec<&str> = self.flags.iter().map(String::as_str).collect();
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); binaries.len()];
        let mut peaks = vec![(0, false); binaries.len()];
        let mut results: Vec<Option<Result<(i32, usize), String>>> = vec![None; binaries.len()];
        for _ in 0..RUNS {
            for (b, binary) in binaries.iter().enumerate() {
                if matches!(results[b], Some(Err(_))) {
                    continue;
                }
                let run = run_check_with(
                    binary,
                    &self.sources,
                    &extra,
                    &[],
                    TIMEOUT,
                    Output::TextSummary,
                );
                results[b] = Some(run.and_then(|run| {
                    times[b].push(run.wall.as_secs_f64());
                    peaks[b].0 = peaks[b].0.max(run.max_rss_kib);
                    peaks[b].1 |= run.rss_is_bound;
                    match (&run.status, warning_count(&run.stdout)) {
                        (RunStatus::Exited(code @ (0 | 1)), Some(w)) => Ok((*code, w)),
                        (status, _) => Err(format!("{status}: {}", first_line(&run.stderr))),
                    }
                }));
            }
        }
        times
            .into_iter()
            .zip(peaks)
            .zip(results)
            .map(|((mut t, (kib, bound)), result)| {
                t.sort_by(f64::total_cmp);
                Measured {
                    median: t.get(t.len() / 2).copied().unwrap_or(f64::NAN),
                    peak: format!("{}{} MiB", if bound { "<=" } else { "" }, kib / 1024),
                    result: result.unwrap_or_else(|| Err(String::from("not run"))),
                }
            })
            .collect()
    }
}

fn describe(result: &Result<(i32, usize), String>) -> String {
    match result {
        Ok((code, warnings)) => format!("exit {code}, {warnings} warnings"),
        Err(message) => format!("failed: {message}"),
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
